import Joi from 'joi'
import type { Sequelize } from 'sequelize'
import { notFound } from '../../lib/errors.ts'
import { toGhs } from '../../lib/money.ts'
import { normalizePhone, phoneVariants } from '../../lib/phone.ts'
import type { SecretBox } from '../../lib/secret-box.ts'
import type { Ctx } from '../context.ts'
import type { LimitsService } from '../limits/index.ts'
import { REFERENCE_RE, type PaymentsService } from '../payments/index.ts'
import type { PaymentRow } from '../payments/provider.ts'
import type { SettingsService } from '../settings/index.ts'
import type { SmsService } from '../sms/index.ts'
import { cardsSms, type Card, type Wanted } from './allocate.ts'
import { createVoucherQueries, type ProductRow } from './queries.ts'
import { createHandoverQueries } from './queries-handover.ts'

/** One purchase as its buyer sees it: the cards only once paid, and what was refunded when stock ran out. */
export interface PurchaseView {
  transactionId: string
  paymentStatus: string
  message: string
  product: { id: number; name: string; howToUse: string; checkingUrl: string } | null
  quantity: number
  amount: number
  cards: Card[]
  /** Cards paid for that the stock could not supply (their money is refunded). */
  notSupplied: number
  createdAt: string
}

const lookupSchema = Joi.object({
  phone: Joi.string().trim().allow('').max(20).default(''),
  transactionId: Joi.string().trim().allow('').max(40).default('')
}).options({ stripUnknown: true })

/** The one answer for a miss, a wrong phone and a guessed id alike. */
const NOTHING = { purchases: [] as PurchaseView[] }

export function createHandover(deps: {
  sequelize: Sequelize
  box: SecretBox
  payments: PaymentsService
  limits: LimitsService
  settings: SettingsService
  sms: SmsService
}) {
  const { sequelize, box, payments } = deps
  const queries = createHandoverQueries(sequelize)
  const voucherQueries = createVoucherQueries(sequelize)

  async function cardsOf(transactionId: string): Promise<Card[]> {
    const rows = await queries.cardsOf(transactionId)
    return rows.map((r) => ({ serial: r.serial, pin: box.open(r.pinSealed), expiresOn: r.expiresOn }))
  }

  async function productOf(id: number | undefined): Promise<ProductRow | null> {
    if (!id) return null
    return voucherQueries.product(id)
  }

  async function present(p: PaymentRow, cards: Card[]): Promise<PurchaseView> {
    const want = p.details?.vouchers as Wanted | undefined
    const product = await productOf(want?.productId)
    const paid = p.status === 'SUCCESS' || p.status.startsWith('REFUND')
    return {
      transactionId: p.transaction_id,
      paymentStatus: p.status,
      message: p.message ?? '',
      product: product && { id: product.id, name: product.name, howToUse: product.howToUse, checkingUrl: product.checkingUrl },
      quantity: want?.quantity ?? 0,
      amount: toGhs(p.amount_pesewas)!,
      cards,
      notSupplied: paid ? Math.max(0, (want?.quantity ?? 0) - cards.length) : 0,
      createdAt: new Date(p.created_at).toISOString()
    }
  }

  /** The buyer's purchase (the browser that started it, the signed-in buyer, or the paying phone): asks the gateway while open. */
  async function purchase(transactionId: string, ctx: Ctx, phone?: unknown): Promise<PurchaseView> {
    await payments.status(transactionId, ctx, phone)
    const p = await payments.load(transactionId)
    if (!p || p.purpose !== 'voucher') throw notFound('Transaction not found')
    return present(p, await cardsOf(p.transaction_id))
  }

  /** "My checkers" of this browser or signed-in buyer, newest first. */
  async function mine(ctx: Ctx): Promise<{ purchases: PurchaseView[] }> {
    const started = ctx.browser?.started() ?? []
    const rows = await queries.purchasesOf(started, ctx.user?.id ?? null)
    const mayShow = rows.filter((p) => payments.mayRead(p, ctx))
    return { purchases: await Promise.all(mayShow.map(async (p) => present(p, await cardsOf(p.transaction_id)))) }
  }

  /**
   * "My checkers" by phone and transaction id. Whatever is wrong (no such id, not a checker, another
   * phone) answers the same empty list after the same work (the cards are read and opened either
   * way), and the asking is rate limited per address and per phone.
   */
  async function lookup(input: unknown, ctx: Ctx): Promise<{ purchases: PurchaseView[] }> {
    // A body of the wrong shape is a miss like any other: the same answer, after the same limits.
    const checked = lookupSchema.validate(input && typeof input === 'object' && !Array.isArray(input) ? input : {})
    const value: { phone: string; transactionId: string } = checked.error ? { phone: '', transactionId: '' } : checked.value
    const digits = String(value.phone).replace(/\D/g, '')
    // One bucket per number however it is written (0XXXXXXXXX or 233XXXXXXXXX).
    await deps.limits.take({ voucherLookupPerIp: ctx.ip, voucherLookupPerPhone: normalizePhone(digits) || 'none' })
    const tid = REFERENCE_RE.test(value.transactionId) ? value.transactionId : '-'
    const p = await queries.payment(tid)
    const cards = await cardsOf(tid)
    const match = !!p && p.purpose === 'voucher' && /^\d{9,12}$/.test(digits) && !!p.payer_phone && phoneVariants(digits).includes(p.payer_phone)
    if (!match) return NOTHING
    return { purchases: [await present(p, cards)] }
  }

  /** The cards by SMS again, to the phone that paid (or the agent's), a few times per purchase. */
  async function resend(transactionId: string, ctx: Ctx, phone?: unknown): Promise<{ message: string }> {
    const p = await payments.load(String(transactionId ?? ''))
    if (!p || p.purpose !== 'voucher' || !payments.mayRead(p, ctx, phone)) throw notFound('Transaction not found')
    const cards = await cardsOf(p.transaction_id)
    if (!cards.length) throw notFound('No cards on this purchase')
    await deps.limits.take({ voucherResendPerPurchase: p.transaction_id }, 'These cards were sent several times already. Please try again later.')
    const product = await productOf((p.details?.vouchers as Wanted | undefined)?.productId)
    const to = p.payer_phone ?? (p.agent_id ? await voucherQueries.agentPhone(p.agent_id) : null)
    const settings = await deps.settings.get()
    if (!to || !product || !settings.smsVoucherSold) throw notFound('No phone to send the cards to')
    await deps.sms.send(to, cardsSms(settings.smsVoucherSold, product, cards), { sealed: true })
    return { message: 'The cards were sent again by SMS' }
  }

  return { cardsOf, purchase, mine, lookup, resend }
}
