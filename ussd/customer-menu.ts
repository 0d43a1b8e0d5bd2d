import type { MenuPackage } from './ports.ts'
import { stepWith, type MenuEnv as CustomerEnv, type Outcome as AnyOutcome } from './dial.ts'
import { orderLine, paginate, pkgLine } from './menu.ts'
import { NETWORK_LABELS, NETWORK_ORDER, ascii, formatSize, ghs, screen } from './text.ts'
import { VOUCHER_RE } from '../server/lib/vocabulary.ts'

// The customer's menu: a caller who is no agent buys for their own phone or another number and pays
// by mobile money from the phone they dial with. Its screens are a separate table from the agent's
// and its state carries no agent, so no answer typed here can reach the PIN, the wallet or earnings.

export type CustomerScreen = 'home' | 'recipientInput' | 'network' | 'packages' | 'payNetwork' | 'confirm' | 'voucher' | 'orders'

export interface CustomerDial {
  v: 1
  kind: 'customer'
  consumed: number
  /** The calling number (local form): the payer, and the recipient for "my number". */
  phone: string
  payerNetwork: string | null
  screen: CustomerScreen
  stack: CustomerScreen[]
  recipient?: string
  network?: string
  page?: number
  packageId?: number
}

type Outcome = AnyOutcome<CustomerScreen>

const HOME_NAV = '0 Back 00 Home'
const MORE = '98 More'

export function customerDial(phone: string, payerNetwork: string | null, consumed: number): CustomerDial {
  return { v: 1, kind: 'customer', consumed, phone, payerNetwork, screen: 'home', stack: [] }
}

/** Fills {price} {dataSize} {network} {recipientNumber} {siteName} in a settings text. */
export function fillCustomerText(template: string, vars: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => vars[k] ?? m)
}

async function packagesOf(env: CustomerEnv, s: CustomerDial) {
  const list = await env.ports.listPackages(s.network!, null)
  const header = `${NETWORK_LABELS[s.network!] ?? s.network} bundles:`
  return { header, pages: paginate(list, header, [MORE, HOME_NAV]) }
}

async function chosen(env: CustomerEnv, s: CustomerDial): Promise<MenuPackage | null> {
  if (!s.network || !s.packageId) return null
  const list = await env.ports.listPackages(s.network, null, true)
  return list.find((p) => p.id === s.packageId) ?? null
}

/** Places the visitor's order; the charge starts in the queued job after this hop has answered. */
async function place(env: CustomerEnv, s: CustomerDial, voucher: string | null): Promise<Outcome> {
  const p = await chosen(env, s)
  if (!p || !s.recipient) return { note: 'That bundle is no longer available.' }
  // Each prompt rings a phone: the same per-number limit as the web's order form.
  await env.services.limits.take({ orderPerPhone: s.phone })
  // A gateway retry of this very hop must not place a second order.
  if (!(await env.services.ussd.sessions.claim(env.sessionId, 'order'))) return { end: 'Your order is already being placed. Wait for the payment prompt.' }
  const placed = await env.ports.placeOrder(
    { packageId: p.id, recipientNumber: s.recipient, payerPhone: s.phone, payerNetwork: s.payerNetwork, voucher },
    { ...env.ctx, user: null }
  )
  if (placed.paymentStatus === 'FAILED') return { end: 'Your order could not be paid for now. Please try again later.' }
  const text = (await env.services.settings.get()).ussdCustomerPlaced
  return {
    end: fillCustomerText(text, {
      price: ghs(placed.amountPesewas),
      dataSize: formatSize(p.sizeMb),
      network: NETWORK_LABELS[p.network] ?? p.network,
      recipientNumber: s.recipient
    })
  }
}

const networkList = () => NETWORK_ORDER.map((n, i) => `${i + 1}. ${NETWORK_LABELS[n]}`)
/** A network answer: applied and moved on, or a note. */
function onNetwork(v: string, apply: (n: string) => void, next: CustomerScreen): Outcome {
  const n = /^[1-3]$/.test(v) ? NETWORK_ORDER[Number(v) - 1] : undefined
  if (!n) return { note: 'Invalid choice.' }
  apply(n)
  return { go: next }
}

export const CUSTOMER_SCREENS: Record<
  CustomerScreen,
  { render(env: CustomerEnv, s: CustomerDial, note?: string | null): Promise<string>; input(env: CustomerEnv, s: CustomerDial, v: string): Promise<Outcome> }
> = {
  home: {
    async render(env, _s, note) {
      const welcome = ascii((await env.services.settings.get()).ussdCustomerWelcome || 'Buy data bundles')
      return screen([welcome, '1. Buy data for my number', '2. Buy for another number', '3. My last orders', '4. Help', '0. Exit'], note)
    },
    async input(env, s, v) {
      const settings = await env.services.settings.get()
      if (v === '1' || v === '2') {
        if (!settings.platformOpen) return { note: 'Purchases are temporarily disabled.' }
        if (v === '2') return { go: 'recipientInput' }
        s.recipient = s.phone
        return { go: 'network' }
      }
      if (v === '3') return { go: 'orders' }
      if (v === '4') return { end: settings.ussdCustomerHelp || 'Help is not available right now.' }
      if (v === '0') return { end: `Thank you for using ${ascii(settings.siteName || 'Data Hub').slice(0, 30)}.` }
      return { note: 'Invalid choice.' }
    }
  },

  recipientInput: {
    async render(_env, _s, note) {
      return screen(['Enter the number to receive the data:', HOME_NAV], note)
    },
    async input(_env, s, v) {
      if (!/^\d{9,12}$/.test(v)) return { note: 'Enter 9 to 12 digits.' }
      s.recipient = v
      return { go: 'network' }
    }
  },

  network: {
    async render(_env, _s, note) {
      return screen(['Choose network', ...networkList(), HOME_NAV], note)
    },
    async input(_env, s, v) {
      return onNetwork(
        v,
        (n) => {
          s.network = n
          s.page = 0
          delete s.packageId
        },
        'packages'
      )
    }
  },

  packages: {
    async render(env, s, note) {
      const { header, pages } = await packagesOf(env, s)
      if (!pages.length) return screen([`No ${NETWORK_LABELS[s.network!]} bundles available now.`, HOME_NAV], note)
      const page = Math.min(s.page ?? 0, pages.length - 1)
      const title = pages.length > 1 ? `${header} (${page + 1}/${pages.length})` : header
      return screen([title, ...pages[page]!.map((p, i) => `${i + 1}. ${pkgLine(p)}`), page < pages.length - 1 ? MORE : '', HOME_NAV], note)
    },
    async input(env, s, v) {
      const { pages } = await packagesOf(env, s)
      const page = Math.min(s.page ?? 0, Math.max(0, pages.length - 1))
      if (v === '98' && page < pages.length - 1) return ((s.page = page + 1), { stay: true })
      const pick = /^[1-7]$/.test(v) ? pages[page]?.[Number(v) - 1] : undefined
      if (!pick) return { note: 'Invalid choice.' }
      s.packageId = pick.id
      return { go: s.payerNetwork ? 'confirm' : 'payNetwork' }
    }
  },

  payNetwork: {
    async render(_env, _s, note) {
      return screen(['Your mobile money network:', ...networkList(), HOME_NAV], note)
    },
    async input(_env, s, v) {
      return onNetwork(v, (n) => (s.payerNetwork = n), 'confirm')
    }
  },

  confirm: {
    async render(env, s, note) {
      const p = await chosen(env, s)
      if (!p) return screen(['That bundle is no longer available.', HOME_NAV], note)
      return screen(
        [
          `Buy ${formatSize(p.sizeMb)} ${NETWORK_LABELS[p.network]} data`,
          `To: ${s.recipient}`,
          `Price: ${ghs(p.pricePesewas)}`,
          `1. Confirm, pay by mobile money`,
          HOME_NAV
        ],
        note
      )
    },
    async input(env, s, v) {
      if (v !== '1') return { note: 'Invalid choice.' }
      // Telecel Cash asks for a voucher before it charges: asked now, while the caller is still here.
      if (s.payerNetwork === 'TELECEL') return { go: 'voucher' }
      return place(env, s, null)
    }
  },

  voucher: {
    async render(_env, _s, note) {
      return screen(['Telecel Cash needs a voucher.', 'Dial *110#, choose Generate Voucher, then enter the 6-digit voucher:', HOME_NAV], note)
    },
    async input(env, s, v) {
      if (!VOUCHER_RE.test(v)) return { note: 'Enter the 6-digit voucher.' }
      return place(env, s, v)
    }
  },

  orders: {
    async render(env, s, note) {
      const orders = await env.services.ussd.callerOrders(s.phone, 3)
      if (!orders.length) return screen(['You have no orders yet.', HOME_NAV], note)
      return screen(['Your last orders:', ...orders.map(orderLine), HOME_NAV], note)
    },
    async input() {
      return { note: 'Invalid choice.' }
    }
  }
}

/** One answer in a customer dial: '00' home, '0' back (a page back first on a paged list), else the screen's rule. */
export function customerStep(env: CustomerEnv, s: CustomerDial, input: string): Promise<{ end: boolean; text: string }> {
  return stepWith(s, input, {
    home: 'home',
    nav: true,
    back: () => (s.screen === 'packages' && (s.page ?? 0) > 0 ? ((s.page = (s.page ?? 0) - 1), true) : false),
    answer: (v) => CUSTOMER_SCREENS[s.screen].input(env, s, v),
    render: (note) => CUSTOMER_SCREENS[s.screen].render(env, s, note)
  })
}
