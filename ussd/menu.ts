import { PURCHASES_DISABLED } from '../server/services/orders/index.ts'
import { parseGhs, toPesewas } from '../server/lib/money.ts'
import { VOUCHER_RE } from '../server/lib/vocabulary.ts'
import type { MenuPackage } from './ports.ts'
import type { UssdOrderRow } from '../server/services/ussd/index.ts'
import { DELIVERY_LABELS } from '../server/services/delivery/present.ts'
import { NAV, NETWORK_LABELS, NETWORK_ORDER, ascii, bodyFits, formatSize, ghs, screen, statusLabel, cediToGhs } from './text.ts'
import { actorOf, checkPin, chosenPackage, payFromWallet, placeFromDial, pricingActor } from './actions.ts'
import { stepWith, type DialState, type MenuEnv, type Outcome, type Screen } from './dial.ts'
import { CHECKER_SCREENS } from './checkers.ts'

const MAX_ITEMS_PER_PAGE = 7
const PAGE_NAV = '8 Prev 9 Next'

async function siteName(env: MenuEnv) {
  return ascii((await env.services.settings.get()).siteName || 'Data Hub').slice(0, 30)
}

/** Splits the bundles into pages that each fit a screen with its header and navigation lines. */
export function paginate(pkgs: MenuPackage[], header: string, navLines: string[] = [PAGE_NAV, NAV]): MenuPackage[][] {
  const pages: MenuPackage[][] = []
  let current: MenuPackage[] = []
  // Sized for the longest title ('... (9/9)') and both paging links.
  const body = (items: MenuPackage[]) => [`${header} (9/9)`, ...items.map((p, i) => `${i + 1}. ${pkgLine(p)}`), ...navLines].join('\n')
  for (const p of pkgs) {
    if (current.length >= MAX_ITEMS_PER_PAGE || (current.length > 0 && !bodyFits(body([...current, p])))) {
      pages.push(current)
      current = []
    }
    current.push(p)
  }
  if (current.length) pages.push(current)
  return pages
}

export const pkgLine = (p: MenuPackage) => `${formatSize(p.sizeMb)} ${ghs(p.pricePesewas)}`
const netShort: Record<string, string> = { MTN: 'MTN', TELECEL: 'TEL', AIRTELTIGO: 'AT' }
const statusShort: Record<string, string> = { PENDING: 'Pending', IN_PROGRESS: 'Paying', SUCCESS: 'Paid', FAILED: 'Failed', EXPIRED: 'Expired' }
/** One order on a phone's screen: size, network, the recipient's last digits, payment state. */
export const orderLine = (o: UssdOrderRow) =>
  `${formatSize(o.dataSizeMb)} ${netShort[o.network] ?? o.network} ..${String(o.recipientNumber).slice(-4)} ${statusShort[o.paymentStatus] ?? o.paymentStatus}`

async function packagesOf(env: MenuEnv, state: DialState) {
  const list = await env.ports.listPackages(state.network!, pricingActor(state))
  const header = `${NETWORK_LABELS[state.network!] ?? state.network} bundles:`
  return { header, pages: paginate(list, header), list }
}

/** Each screen: how it looks, and what an answer does. '0' (back) and '00' (main menu) are handled before. */
export const SCREENS: Record<
  Screen,
  { render(env: MenuEnv, s: DialState, note?: string | null): Promise<string>; input(env: MenuEnv, s: DialState, v: string): Promise<Outcome> }
> = {
  pin: {
    async render(env, _s, note) {
      return screen([`Welcome to ${await siteName(env)}`, 'Enter your 4-digit agent PIN:'], note)
    },
    async input(env, s, v) {
      const refused = await checkPin(env, s, v)
      if (refused) return refused
      s.authed = true
      s.stack = []
      s.screen = 'main'
      return { stay: true }
    }
  },

  main: {
    async render(env, _s, note) {
      return screen(
        [await siteName(env), '1. Buy data', '2. My last 5 orders', '3. Order status', '4. Earnings and payout', '5. Result checkers', '0. Exit'],
        note
      )
    },
    async input(env, s, v) {
      if (v === '1') {
        if ((await env.services.settings.get()).platformOpen === false) return { note: 'Purchases are temporarily disabled.' }
        return { go: 'network' }
      }
      if (v === '2') return { go: 'orders' }
      if (v === '3') return { go: 'statusInput' }
      if (v === '4') return { go: 'earnings' }
      if (v === '5') {
        if ((await env.services.settings.get()).platformOpen === false) return { note: 'Purchases are temporarily disabled.' }
        return { go: 'checkerProduct' }
      }
      if (v === '0') return { end: `Thank you for using ${await siteName(env)}.` }
      return { note: 'Invalid choice.' }
    }
  },

  network: {
    async render(_env, _s, note) {
      return screen(['Buy data: choose network', ...NETWORK_ORDER.map((n, i) => `${i + 1}. ${NETWORK_LABELS[n]}`), NAV], note)
    },
    async input(_env, s, v) {
      const n = NETWORK_ORDER[Number(v) - 1]
      if (!/^[1-3]$/.test(v) || !n) return { note: 'Invalid choice.' }
      s.network = n
      s.page = 0
      delete s.packageId
      return { go: 'packages' }
    }
  },

  packages: {
    async render(env, s, note) {
      const { header, pages } = await packagesOf(env, s)
      if (!pages.length) return screen([`No ${NETWORK_LABELS[s.network!]} bundles available now.`, NAV], note)
      const page = Math.min(s.page ?? 0, pages.length - 1)
      const nav = [page > 0 ? '8 Prev' : '', page < pages.length - 1 ? '9 Next' : ''].filter(Boolean).join(' ')
      const title = pages.length > 1 ? `${header} (${page + 1}/${pages.length})` : header
      return screen([title, ...pages[page]!.map((p, i) => `${i + 1}. ${pkgLine(p)}`), nav, NAV], note)
    },
    async input(env, s, v) {
      const { pages } = await packagesOf(env, s)
      const page = Math.min(s.page ?? 0, Math.max(0, pages.length - 1))
      if (v === '9' && page < pages.length - 1) return ((s.page = page + 1), { stay: true })
      if (v === '8' && page > 0) return ((s.page = page - 1), { stay: true })
      const pick = /^[1-7]$/.test(v) ? pages[page]?.[Number(v) - 1] : undefined
      if (!pick) return { note: 'Invalid choice.' }
      s.packageId = pick.id
      return { go: 'recipient' }
    }
  },

  recipient: {
    async render(_env, s, note) {
      return screen(['Send the data to:', `1. My number (${s.agent.phone})`, '2. Another number', NAV], note)
    },
    async input(_env, s, v) {
      if (v === '1') {
        s.recipient = s.agent.phone
        return { go: s.payerNetwork ? 'confirm' : 'payNetwork' }
      }
      if (v === '2') return { go: 'recipientInput' }
      return { note: 'Invalid choice.' }
    }
  },

  recipientInput: {
    async render(_env, _s, note) {
      return screen(['Enter the recipient number (digits only):', NAV], note)
    },
    async input(_env, s, v) {
      if (!/^\d{9,12}$/.test(v)) return { note: 'Enter 9 to 12 digits.' }
      s.recipient = v
      return { go: s.payerNetwork ? 'confirm' : 'payNetwork' }
    }
  },

  payNetwork: {
    async render(_env, _s, note) {
      return screen(['Your mobile money network:', ...NETWORK_ORDER.map((n, i) => `${i + 1}. ${NETWORK_LABELS[n]}`), NAV], note)
    },
    async input(_env, s, v) {
      const n = NETWORK_ORDER[Number(v) - 1]
      if (!/^[1-3]$/.test(v) || !n) return { note: 'Invalid choice.' }
      s.payerNetwork = n
      return { go: 'confirm' }
    }
  },

  confirm: {
    async render(env, s, note) {
      const p = await chosenPackage(env, s)
      if (!p) return screen(['That bundle is no longer available.', NAV], note)
      const balance = await env.services.wallet.balancePesewas(s.agent.id)
      return screen(
        [
          'Confirm purchase',
          `${formatSize(p.sizeMb)} ${NETWORK_LABELS[p.network]} data`,
          `To: ${s.recipient}`,
          `Price: ${ghs(p.pricePesewas)}`,
          '1. Mobile money',
          `2. Wallet (${ghs(balance)})`,
          NAV
        ],
        note
      )
    },
    async input(env, s, v) {
      if (v !== '1' && v !== '2') return { note: 'Invalid choice.' }
      if (v === '2') {
        const p = await chosenPackage(env, s)
        if (!p || !s.recipient) return { note: 'That bundle is no longer available.' }
        return payFromWallet(env, s, p)
      }
      // Telecel Cash asks for a voucher (Paystack send_otp): asked here, in the same dial.
      if (s.payerNetwork === 'TELECEL') {
        // Closed shops say so before the payer goes to fetch a voucher.
        if (!(await env.services.settings.get()).platformOpen) return { end: PURCHASES_DISABLED }
        return { go: 'voucher' }
      }
      return placeFromDial(env, s, null)
    }
  },

  voucher: {
    async render(_env, _s, note) {
      return screen(['Telecel Cash needs a voucher.', 'Dial *110#, choose Generate Voucher, then enter the 6-digit voucher:', NAV], note)
    },
    async input(env, s, v) {
      if (!VOUCHER_RE.test(v)) return { note: 'Enter the 6-digit voucher.' }
      return placeFromDial(env, s, v)
    }
  },

  orders: {
    async render(env, s, note) {
      const orders = await env.services.ussd.recentOrders(s.agent, 5)
      if (!orders.length) return screen(['You have no orders yet.', NAV], note)
      const lines = orders.map(orderLine)
      return screen(['Your last orders:', ...lines, NAV], note)
    },
    async input() {
      return { note: 'Invalid choice.' }
    }
  },

  statusInput: {
    async render(_env, _s, note) {
      return screen(['Order status', 'Enter the last 4 or more digits of the transaction ID:', NAV], note)
    },
    async input(env, s, v) {
      if (!/^\d+$/.test(v)) return { note: 'Digits only, please.' }
      if (v.length < 4) return { note: 'Enter at least 4 digits.' }
      const order = await env.services.ussd.findOrderByTxSuffix(s.agent, v)
      if (!order) return { note: 'No order found with those digits.' }
      s.orderId = order.id
      return { go: 'statusResult' }
    }
  },

  earnings: {
    async render(env, s, note) {
      const available = await env.services.earnings.balancePesewas(s.agent.id)
      const n = await env.services.payouts.activeNumber(s.agent.id)
      if (!n) return screen(['Shop earnings', `Available: ${ghs(available)}`, 'Add a payout number in the agent portal (Payouts) to withdraw.', NAV], note)
      return screen(
        ['Shop earnings', `Available: ${ghs(available)}`, `Payout to: ${NETWORK_LABELS[n.network] ?? n.network} ${n.phone}`, '1. Request payout', NAV],
        note
      )
    },
    async input(env, s, v) {
      if (v !== '1' || !(await env.services.payouts.activeNumber(s.agent.id))) return { note: 'Invalid choice.' }
      return { go: 'payoutAmount' }
    }
  },

  payoutAmount: {
    async render(env, _s, note) {
      const rules = await env.services.payouts.settings()
      return screen(['Amount to receive in GHS', `(minimum ${ghs(toPesewas(rules.minimum))}, fee ${ghs(toPesewas(rules.fee))}):`, NAV], note)
    },
    async input(env, s, v) {
      const pesewas = /^\d{1,6}(\.|$)/.test(v) ? parseGhs(v) : null
      if (pesewas === null) return { note: 'Enter an amount like 20 or 20.50.' }
      const rules = await env.services.payouts.settings()
      if (pesewas < toPesewas(rules.minimum)) return { note: `Minimum is ${ghs(toPesewas(rules.minimum))}.` }
      s.payoutPesewas = pesewas
      return { go: 'payoutPin' }
    }
  },

  payoutPin: {
    async render(env, s, note) {
      const n = await env.services.payouts.activeNumber(s.agent.id)
      const fee = toPesewas((await env.services.payouts.settings()).fee)
      return screen(
        [
          `Payout ${ghs(s.payoutPesewas ?? 0)} to ${n ? `${NETWORK_LABELS[n.network] ?? n.network} ${n.phone}` : 'your number'}`,
          `Fee ${ghs(fee)}. Enter your PIN to confirm:`,
          NAV
        ],
        note
      )
    },
    async input(env, s, v) {
      const refused = await checkPin(env, s, v)
      if (refused) return refused
      // A gateway retry of this very hop must not ask for a second payout.
      if (!(await env.services.ussd.sessions.claim(env.sessionId, 'payout'))) return { end: 'Your payout is already being requested.' }
      try {
        const p = await env.services.payouts.requestFromUssd(s.agent.id, s.payoutPesewas ?? 0, { ...env.ctx, user: await actorOf(env, s) })
        const when = p.status === 'PENDING_APPROVAL' ? 'It waits for admin approval, then goes' : 'It goes'
        return { end: `Payout #${p.id} of ${ghs(toPesewas(p.amount))} requested. ${when} to ${NETWORK_LABELS[p.network] ?? p.network} ${p.phone}.` }
      } catch (err) {
        const status = (err as { status?: number }).status
        if (status && status < 500) return { end: ascii(cediToGhs(String((err as Error).message))) }
        throw err
      }
    }
  },

  ...CHECKER_SCREENS,

  statusResult: {
    async render(env, s, note) {
      let o = s.orderId ? await env.services.ussd.agentOrder(s.agent!, s.orderId) : null
      const tx = o?.paymentTransactionId
      if (o && tx && ['PENDING', 'IN_PROGRESS'].includes(o.paymentStatus)) {
        // Asks the gateway (no faster than it allows), so a missed webhook does not leave it Pending.
        try {
          await env.ports.refreshStatus(tx, { ...env.ctx, user: await actorOf(env, s) })
          o = await env.services.ussd.agentOrder(s.agent!, s.orderId!)
        } catch (err) {
          env.ctx.log?.warn({ err: (err as Error).message }, 'USSD status refresh failed')
        }
      }
      if (!o) return screen(['Order not found.', NAV], note)
      return screen(
        [
          `Order ..${String(o.paymentTransactionId ?? '').slice(-8)}`,
          `${formatSize(o.dataSizeMb)} ${NETWORK_LABELS[o.network] ?? o.network} to ${o.recipientNumber}`,
          `Amount: ${ghs(o.amountPesewas)}`,
          `Payment: ${statusLabel(o.paymentStatus)}`,
          `Delivery: ${o.paymentStatus === 'SUCCESS' ? (DELIVERY_LABELS[o.deliveryStatus] ?? 'Awaiting delivery') : 'After payment'}`,
          NAV
        ],
        note
      )
    },
    async input() {
      return { note: 'Invalid choice.' }
    }
  }
}

/** Applies one answer to the dial: the PIN until signed in, then global navigation and the screen's own rule. */
export function step(env: MenuEnv, s: DialState, input: string): Promise<{ end: boolean; text: string }> {
  return stepWith(s, input, {
    home: 'main',
    nav: s.authed,
    answer: (v) => SCREENS[s.authed ? s.screen : 'pin'].input(env, s, v),
    render: (note) => SCREENS[s.screen].render(env, s, note)
  })
}
