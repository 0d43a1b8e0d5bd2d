import { AppError } from '../../lib/errors.ts'
import { normalizePhone, parseGhanaMobile } from '../../lib/phone.ts'
import { formatSize, ghsText, NETWORK_LABEL, NETWORKS, paymentStatusLabel, VOUCHER_RE } from '../../lib/vocabulary.ts'
import type { Settings } from '../settings/index.ts'
import type { Outgoing } from './messages.ts'

/** Where a chat stands between messages (stored as JSON in whatsapp_chats). */
export interface ChatState {
  step?: 'network' | 'package' | 'recipient' | 'recipientInput' | 'payHow' | 'payer' | 'payerInput' | 'voucher' | 'confirm'
  network?: string
  packageId?: number
  recipient?: string
  payer?: string
  payerNetwork?: string
  voucher?: string
  /** The order's transaction id, chosen when the customer is asked to confirm: a turn run twice places one order. */
  reference?: string
  /** The price the customer was asked to confirm (a shop's order is placed at it or refused). */
  pricePesewas?: number
  /** 'link': the customer pays on the site through a payment link instead of a prompt. */
  payBy?: 'momo' | 'link'
  /** The agent's shop this chat buys from (named in a message); kept until another shop is named. */
  shop?: ChatShop
}

export interface ChatShop {
  slug: string
  name: string
}

export interface ChatBundle {
  id: number
  network: string
  sizeMb: number
  pricePesewas: number
}

export interface ChatOrder {
  transactionId: string
  network: string
  sizeMb: number
  recipient: string
  amountPesewas: number
  paymentStatus: string
  deliveryStatus: string
}

/** What a conversation may do: the same services every channel uses. */
export interface ChatPorts {
  settings(): Promise<
    Pick<
      Settings,
      'siteName' | 'platformOpen' | 'whatsappGreeting' | 'whatsappHandoff' | 'whatsappShopGreeting' | 'whatsappShopUnavailable' | 'whatsappPayLink'
    >
  >
  /** The shop a message names, when it takes WhatsApp orders now. */
  shop(slug: string): Promise<ChatShop | null>
  /** A network's bundles at the main shop's price, or at the bound shop's. */
  bundles(network: string, shop?: string): Promise<ChatBundle[]>
  place(input: ChatOrderInput & { payer: string; payerNetwork: string; voucher: string | null }): Promise<{ transactionId: string; amountPesewas: number }>
  /** The order without a prompt, and a link to a page that pays it. */
  payLink(input: ChatOrderInput): Promise<{ transactionId: string; amountPesewas: number; link: string; minutes: number }>
  newReference(): string
  recentOrders(limit: number): Promise<ChatOrder[]>
  handOff(): Promise<void>
}

export interface ChatOrderInput {
  packageId: number
  recipient: string
  reference: string
  shop?: string
  pricePesewas: number
}

export interface Turn {
  /** The customer's number as WhatsApp gives it (international digits). */
  waId: string
  text: string | null
  replyId: string | null
}

const MAIN: Outgoing = {
  type: 'buttons',
  text: 'What would you like to do?',
  buttons: [
    { id: 'menu:buy', title: 'Buy data' },
    { id: 'menu:orders', title: 'My orders' },
    { id: 'menu:human', title: 'Talk to a person' }
  ]
}
const GREETINGS = /^(hi|hello|hey|menu|start|help|good (morning|afternoon|evening))\b/i
/** "shop <slug>" anywhere in a typed message (a shop's wa.me link types it for the customer). */
const SHOP_NAMED = /\bshop\s+([a-z0-9][a-z0-9-]{1,28}[a-z0-9])\b/i

/** A settings template with its {variables} filled. */
const fill = (template: string, vars: Record<string, string | number>) => template.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m))

const bundleLine = (p: { sizeMb: number; network: string }) => `${formatSize(p.sizeMb)} ${NETWORK_LABEL[p.network as 'MTN'] ?? p.network}`

/** A question with reply buttons (id, title). */
const buttonsOf = (text: string, ...choices: [string, string][]): Outgoing => ({
  type: 'buttons',
  text,
  buttons: choices.map(([id, title]) => ({ id, title }))
})

const payHow = () => buttonsOf('How would you like to pay?', ['pay:momo', 'Pay by mobile money'], ['pay:link', 'Get a payment link'])
const whoPays = () => buttonsOf('Which mobile money number should get the payment prompt?', ['pay:me', 'This number'], ['pay:other', 'Another number'])

/** A typed Ghana mobile number, or what is wrong with it. */
function mobile(text: string | null): { ok: true; local: string; network: string } | { ok: false; error: string } {
  const p = parseGhanaMobile(String(text ?? ''))
  return p.ok ? { ok: true, local: p.local, network: p.network } : { ok: false, error: p.error }
}

/**
 * One customer message in, the bot's answers out; `state` is changed in place. Rules (prices,
 * platform open, limits) are the services' own, reached through `ports`; what they refuse is said.
 */
export async function converse(state: ChatState, turn: Turn, ports: ChatPorts): Promise<Outgoing[]> {
  const id = turn.replyId ?? ''
  const text = (turn.text ?? '').trim()
  const own = normalizePhone(turn.waId)
  const named = id ? null : SHOP_NAMED.exec(text)

  if (named) {
    clear(state)
    delete state.shop
    const [shop, s] = await Promise.all([ports.shop(named[1]!.toLowerCase()), ports.settings()])
    if (!shop) return [{ type: 'text', text: fill(s.whatsappShopUnavailable, { siteName: s.siteName }) }, MAIN]
    state.shop = shop
    return [{ type: 'text', text: fill(s.whatsappShopGreeting, { shopName: shop.name, siteName: s.siteName }) }, MAIN]
  }
  if (id === 'menu:buy') {
    if (!(await ports.settings()).platformOpen) return [{ type: 'text', text: 'Purchases are temporarily disabled. Please try again later.' }, MAIN]
    Object.assign(clear(state), { step: 'network' })
    return [
      {
        type: 'list',
        text: 'Choose the network of the number that gets the data.',
        button: 'Networks',
        rows: NETWORKS.map((n) => ({ id: `net:${n}`, title: NETWORK_LABEL[n] }))
      }
    ]
  }
  if (id === 'menu:orders') {
    clear(state)
    const orders = await ports.recentOrders(3)
    if (!orders.length) return [{ type: 'text', text: 'You have no orders yet.' }, MAIN]
    const lines = orders.map(
      (o) =>
        `• ${bundleLine({ sizeMb: o.sizeMb, network: o.network })} to ${o.recipient}, ${ghsText(o.amountPesewas)}: ${paymentStatusLabel(o.paymentStatus)}${o.deliveryStatus === 'DELIVERED' ? ', delivered' : ''} (ref ${o.transactionId.slice(-8)})`
    )
    return [{ type: 'text', text: `Your last orders:\n${lines.join('\n')}` }, MAIN]
  }
  if (id === 'menu:human') {
    clear(state)
    await ports.handOff()
    return [{ type: 'text', text: (await ports.settings()).whatsappHandoff }]
  }
  if (id.startsWith('net:') && state.step === 'network') {
    const network = id.slice(4)
    const list = (NETWORKS as readonly string[]).includes(network) ? await ports.bundles(network, state.shop?.slug) : []
    if (!list.length) return [{ type: 'text', text: 'No bundles are available for that network right now.' }, MAIN]
    Object.assign(state, { step: 'package', network })
    return [
      {
        type: 'list',
        text: `${NETWORK_LABEL[network as 'MTN']} bundles: choose one.`,
        button: 'Bundles',
        rows: list.slice(0, 10).map((p) => ({ id: `pkg:${p.id}`, title: formatSize(p.sizeMb), description: ghsText(p.pricePesewas) }))
      }
    ]
  }
  if (id.startsWith('pkg:') && state.step === 'package') {
    const chosen = (await ports.bundles(state.network!, state.shop?.slug)).find((p) => `pkg:${p.id}` === id)
    if (!chosen) return [{ type: 'text', text: 'That bundle is no longer available.' }, MAIN]
    Object.assign(state, { step: 'recipient', packageId: chosen.id })
    return [
      {
        type: 'buttons',
        text: `${bundleLine(chosen)} for ${ghsText(chosen.pricePesewas)}. Who gets the data?`,
        buttons: [
          { id: 'to:me', title: 'This number' },
          { id: 'to:other', title: 'Another number' }
        ]
      }
    ]
  }
  if (id === 'to:me' && state.step === 'recipient') {
    const m = mobile(own)
    if (!m.ok) return ask(state, 'recipientInput', 'This WhatsApp number is not a Ghana mobile number. Type the number that gets the data (like 0241234567).')
    Object.assign(state, { step: 'payHow', recipient: m.local })
    return [payHow()]
  }
  if (id === 'to:other' && state.step === 'recipient') return ask(state, 'recipientInput', 'Type the number that gets the data (like 0241234567).')
  if (state.step === 'recipientInput' && text) {
    const m = mobile(text)
    if (!m.ok) return [{ type: 'text', text: `${m.error}. Type it again (like 0241234567).` }]
    Object.assign(state, { step: 'payHow', recipient: m.local })
    return [payHow()]
  }
  if (id === 'pay:momo' && state.step === 'payHow') {
    Object.assign(state, { step: 'payer', payBy: 'momo' })
    return [whoPays()]
  }
  if (id === 'pay:link' && state.step === 'payHow') {
    for (const k of ['payer', 'payerNetwork', 'voucher'] as const) delete state[k]
    state.payBy = 'link'
    return confirmation(state, ports)
  }
  if (id === 'pay:me' && state.step === 'payer') {
    const m = mobile(own)
    if (!m.ok) return ask(state, 'payerInput', 'This WhatsApp number cannot take a mobile money prompt. Type the mobile money number (like 0241234567).')
    return payerChosen(state, m.local, m.network, ports)
  }
  if (id === 'pay:other' && state.step === 'payer')
    return ask(state, 'payerInput', 'Type the mobile money number that should get the prompt (like 0241234567).')
  if (state.step === 'payerInput' && text) {
    const m = mobile(text)
    if (!m.ok) return [{ type: 'text', text: `${m.error}. Type it again (like 0241234567).` }]
    return payerChosen(state, m.local, m.network, ports)
  }
  if (state.step === 'voucher' && text) {
    if (!VOUCHER_RE.test(text)) return [{ type: 'text', text: 'Send the 6-digit voucher from *110# (Generate Voucher).' }]
    state.voucher = text
    return confirmation(state, ports)
  }
  if (id === 'confirm' && state.step === 'confirm') return place(state, ports)
  if (id === 'cancel' && state.step === 'confirm') {
    clear(state)
    return [{ type: 'text', text: 'Cancelled. Nothing was charged.' }, MAIN]
  }
  if (GREETINGS.test(text) || !state.step) {
    clear(state)
    const s = await ports.settings()
    const hello = state.shop
      ? fill(s.whatsappShopGreeting, { shopName: state.shop.name, siteName: s.siteName })
      : fill(s.whatsappGreeting, { siteName: s.siteName })
    return [{ type: 'text', text: hello }, MAIN]
  }
  return [{ type: 'text', text: 'Sorry, I did not understand that. Use the buttons, or send "menu" to start again.' }]
}

/** Back to the start; the chat stays with its shop. */
function clear(state: ChatState): ChatState {
  for (const k of Object.keys(state)) if (k !== 'shop') delete state[k as keyof ChatState]
  return state
}

function ask(state: ChatState, step: ChatState['step'], text: string): Outgoing[] {
  state.step = step
  return [{ type: 'text', text }]
}

async function payerChosen(state: ChatState, payer: string, network: string, ports: ChatPorts): Promise<Outgoing[]> {
  Object.assign(state, { payer, payerNetwork: network })
  delete state.voucher
  // Telecel Cash asks for a voucher before it charges: asked now, so the queued charge can send it.
  if (network === 'TELECEL')
    return ask(state, 'voucher', 'Telecel Cash needs a voucher: dial *110#, choose Generate Voucher, then send the 6-digit voucher here.')
  return confirmation(state, ports)
}

async function confirmation(state: ChatState, ports: ChatPorts): Promise<Outgoing[]> {
  const p = (await ports.bundles(state.network!, state.shop?.slug)).find((b) => b.id === state.packageId)
  if (!p) return [{ type: 'text', text: 'That bundle is no longer available.' }, MAIN]
  Object.assign(state, { step: 'confirm', reference: ports.newReference(), pricePesewas: p.pricePesewas })
  const how = state.payBy === 'link' ? 'You will get a link to pay on our site.' : `The payment prompt goes to ${state.payer}.`
  return [
    {
      type: 'buttons',
      text: `Please confirm: ${bundleLine(p)} for ${state.recipient}. Price: ${ghsText(p.pricePesewas)}. ${how}`,
      buttons: [
        { id: 'confirm', title: 'Confirm and pay' },
        { id: 'cancel', title: 'Cancel' }
      ]
    }
  ]
}

async function place(state: ChatState, ports: ChatPorts): Promise<Outgoing[]> {
  const { packageId, recipient, payer, payerNetwork, reference, payBy, pricePesewas, shop } = state
  const voucher = state.voucher ?? null
  clear(state)
  const order: ChatOrderInput = {
    packageId: packageId!,
    recipient: recipient!,
    reference: reference ?? ports.newReference(),
    shop: shop?.slug,
    pricePesewas: pricePesewas!
  }
  try {
    if (payBy === 'link') {
      const [made, s] = await Promise.all([ports.payLink(order), ports.settings()])
      const text = fill(s.whatsappPayLink, { link: made.link, price: ghsText(made.amountPesewas), ref: made.transactionId.slice(-8), minutes: made.minutes })
      return [{ type: 'text', text }]
    }
    const placed = await ports.place({ ...order, payer: payer!, payerNetwork: payerNetwork!, voucher })
    return [
      {
        type: 'text',
        text: `Order placed (ref ${placed.transactionId.slice(-8)}). A payment prompt for ${ghsText(placed.amountPesewas)} is coming to ${payer}. Approve it to pay; we will message you when the data is delivered.`
      }
    ]
  } catch (err) {
    // A rule of the order services (closed, limit, bundle gone): say it, nothing was placed.
    if (err instanceof AppError && err.status < 500) return [{ type: 'text', text: err.message }, MAIN]
    throw err
  }
}
