import { AppError } from '../../lib/errors.ts'
import { normalizePhone, parseGhanaMobile } from '../../lib/phone.ts'
import { formatSize, ghsText, NETWORK_LABEL, NETWORKS, paymentStatusLabel, VOUCHER_RE } from '../../lib/vocabulary.ts'
import type { Outgoing } from './messages.ts'

/** Where a chat stands between messages (stored as JSON in whatsapp_chats). */
export interface ChatState {
  step?: 'network' | 'package' | 'recipient' | 'recipientInput' | 'payer' | 'payerInput' | 'voucher' | 'confirm'
  network?: string
  packageId?: number
  recipient?: string
  payer?: string
  payerNetwork?: string
  voucher?: string
  /** The order's transaction id, chosen when the customer is asked to confirm: a turn run twice places one order. */
  reference?: string
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
  settings(): Promise<{ siteName: string; platformOpen: boolean; whatsappGreeting: string; whatsappHandoff: string }>
  bundles(network: string): Promise<ChatBundle[]>
  place(input: {
    packageId: number
    recipient: string
    payer: string
    payerNetwork: string
    voucher: string | null
    reference: string
  }): Promise<{ transactionId: string; amountPesewas: number }>
  newReference(): string
  recentOrders(limit: number): Promise<ChatOrder[]>
  handOff(): Promise<void>
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

const bundleLine = (p: { sizeMb: number; network: string }) => `${formatSize(p.sizeMb)} ${NETWORK_LABEL[p.network as 'MTN'] ?? p.network}`

function whoPays(): Outgoing {
  return {
    type: 'buttons',
    text: 'Which mobile money number should get the payment prompt?',
    buttons: [
      { id: 'pay:me', title: 'This number' },
      { id: 'pay:other', title: 'Another number' }
    ]
  }
}

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
    const list = (NETWORKS as readonly string[]).includes(network) ? await ports.bundles(network) : []
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
    const chosen = (await ports.bundles(state.network!)).find((p) => `pkg:${p.id}` === id)
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
    Object.assign(state, { step: 'payer', recipient: m.local })
    return [whoPays()]
  }
  if (id === 'to:other' && state.step === 'recipient') return ask(state, 'recipientInput', 'Type the number that gets the data (like 0241234567).')
  if (state.step === 'recipientInput' && text) {
    const m = mobile(text)
    if (!m.ok) return [{ type: 'text', text: `${m.error}. Type it again (like 0241234567).` }]
    Object.assign(state, { step: 'payer', recipient: m.local })
    return [whoPays()]
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
    return [{ type: 'text', text: s.whatsappGreeting.replace(/\{siteName\}/g, s.siteName) }, MAIN]
  }
  return [{ type: 'text', text: 'Sorry, I did not understand that. Use the buttons, or send "menu" to start again.' }]
}

function clear(state: ChatState): ChatState {
  for (const k of Object.keys(state)) delete state[k as keyof ChatState]
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
  const p = (await ports.bundles(state.network!)).find((b) => b.id === state.packageId)
  if (!p) return [{ type: 'text', text: 'That bundle is no longer available.' }, MAIN]
  state.step = 'confirm'
  state.reference = ports.newReference()
  return [
    {
      type: 'buttons',
      text: `Please confirm: ${bundleLine(p)} for ${state.recipient}. Price: ${ghsText(p.pricePesewas)}. The payment prompt goes to ${state.payer}.`,
      buttons: [
        { id: 'confirm', title: 'Confirm and pay' },
        { id: 'cancel', title: 'Cancel' }
      ]
    }
  ]
}

async function place(state: ChatState, ports: ChatPorts): Promise<Outgoing[]> {
  const { packageId, recipient, payer, payerNetwork, reference } = state
  const voucher = state.voucher ?? null
  clear(state)
  try {
    const placed = await ports.place({
      packageId: packageId!,
      recipient: recipient!,
      payer: payer!,
      payerNetwork: payerNetwork!,
      voucher,
      reference: reference ?? ports.newReference()
    })
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
