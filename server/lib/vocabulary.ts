/**
 * What people read for the codes the API and the database speak: networks, payment and delivery
 * statuses, payment purposes, money, sizes and dates. Server texts (SMS, USSD, error messages) and
 * pages import this one module, so a code never reaches a screen or a handset as it is stored.
 */
import { formatCedis, ghsText } from './money.ts'

export { formatCedis, ghsText }

export const NETWORKS = ['MTN', 'TELECEL', 'AIRTELTIGO'] as const
export type NetworkName = (typeof NETWORKS)[number]
/** The spec's own spelling of the networks. */
export const NETWORK_LABEL: Record<string, string> = { MTN: 'MTN', TELECEL: 'Telecel', AIRTELTIGO: 'AirtelTigo' } satisfies Record<NetworkName, string>

/** Where an order was placed (orders.channel), as admins read it. */
export const CHANNEL_LABEL: Record<string, string> = { web: 'Web', ussd: 'USSD', whatsapp: 'WhatsApp', api: 'API' }
/** Each network's mobile-money wallet, as payers know it (payout numbers, transfers). */
export const MOMO_LABEL: Record<NetworkName, string> = { MTN: 'MTN MoMo', TELECEL: 'Telecel Cash', AIRTELTIGO: 'AirtelTigo Money' }
export const isNetwork = (code: string): code is NetworkName => (NETWORKS as readonly string[]).includes(code)
/** 'MTN, TELECEL or AIRTELTIGO': the choices in a sentence (error messages). */
export const orList = (words: readonly string[]): string =>
  words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`

/** Payment statuses (spec section 4's admin labels) and the refund states that follow a payment. */
export const PAYMENT_STATUS_LABEL: Record<string, string> = {
  PENDING: 'Pending',
  IN_PROGRESS: 'In Progress',
  SUCCESS: 'Successful',
  FAILED: 'Failed',
  EXPIRED: 'Expired',
  REFUND_PENDING: 'Refund pending',
  REFUNDED: 'Refunded',
  REFUND_FAILED: 'Refund delayed',
  REVERSED: 'Reversed',
  DELIVERED: 'Delivered',
  PAID: 'Paid'
}

/** What buyers and agents read for each delivery status (cards, tables, USSD). */
export const DELIVERY_LABELS: Record<string, string> = {
  NOT_STARTED: 'Awaiting delivery',
  QUEUED: 'Delivering',
  PROCESSING: 'Delivering',
  DELIVERED: 'Delivered',
  MANUAL: 'Delivered',
  FAILED: 'Delivery failed'
}

/** What a payment pays for (the payer's phone prompt, the simulator, statements). */
export const PURPOSE_LABEL: Record<string, string> = {
  data: 'Data bundle',
  agent_order: 'Data bundle',
  afa: 'AFA registration',
  agent_fee: 'Agent registration fee',
  agent: 'Agent registration fee',
  wallet_topup: 'Wallet top-up',
  voucher: 'Result checker cards',
  batch: 'Bulk order'
}

/** A readable word for a code no map knows yet: 'SOME_CODE' -> 'Some code'. */
function humanize(code: string): string {
  const words = code.replace(/_/g, ' ').trim().toLowerCase()
  return words ? words[0]!.toUpperCase() + words.slice(1) : ''
}

const label =
  (map: Record<string, string>, upper: boolean) =>
  (code: string | null | undefined, none = '-'): string => {
    const raw = String(code ?? '').trim()
    if (!raw) return none
    return map[upper ? raw.toUpperCase() : raw] ?? humanize(raw)
  }

export const networkLabel = label(NETWORK_LABEL, true)
export const paymentStatusLabel = label(PAYMENT_STATUS_LABEL, true)
export const deliveryLabel = label(DELIVERY_LABELS, true)
export const purposeLabel = label(PURPOSE_LABEL, false)

/** Replaces the cedi sign in a web text (an error message) with GHS for a handset. */
export const cediToGhs = (text: string) => text.replace(/GH₵\s?/g, 'GHS ')

/** Spec section 9: 1024 MB or more shows as GB with 1 decimal, else MB. */
export function formatSize(mb: number | null | undefined): string {
  const n = Number(mb ?? 0)
  return n >= 1024 ? `${(n / 1024).toFixed(1)}GB` : `${n}MB`
}

// Ghana's own zone (GMT all year) and day-first dates, fixed so the server render and any browser agree.
// Made on first use: each costs a phone milliseconds of main thread, and the buy page's first render shows no date.
let dateTimeFmt: Intl.DateTimeFormat | undefined
let dayFmt: Intl.DateTimeFormat | undefined
const dateTimeFormat = () =>
  (dateTimeFmt ??= new Intl.DateTimeFormat('en-GH', {
    timeZone: 'Africa/Accra',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23'
  }))
const dayFormat = () => (dayFmt ??= new Intl.DateTimeFormat('en-GH', { timeZone: 'Africa/Accra', day: '2-digit', month: '2-digit', year: 'numeric' }))
const valid = (d: string | Date | null | undefined): Date | null => {
  if (!d) return null
  const date = d instanceof Date ? d : new Date(d)
  return Number.isNaN(date.getTime()) ? null : date
}
/** '26/11/2026, 14:05' */
export const formatDate = (d: string | Date | null | undefined) => {
  const date = valid(d)
  return date ? dateTimeFormat().format(date) : '-'
}
/** '26/11/2026' */
export const formatDay = (d: string | Date | null | undefined) => {
  const date = valid(d)
  return date ? dayFormat().format(date) : '-'
}

/** What an agent row must be to trade as an agent (agent prices, orders, wallet, shop, API): approved by an admin, fee paid. */
export interface AgentStanding {
  approved?: boolean | null
  paymentStatus?: string | null
}

/** The active-agent rule (spec section 6): approved AND the registration fee paid. */
export const isActiveAgent = (agent: AgentStanding | null | undefined): boolean => !!agent?.approved && agent.paymentStatus === 'SUCCESS'

/** The same rule in SQL, on the agents row under the alias `a`. */
export const ACTIVE_AGENT_SQL = `(a.approved AND a.payment_status = 'SUCCESS')`

/** A Telecel Cash voucher, generated by the payer at *110#: six digits. */
export const VOUCHER_RE = /^\d{6}$/
