import { badRequest, notFound } from '../../lib/errors.ts'
import { phoneVariants } from '../../lib/phone.ts'
import type { Ctx } from '../context.ts'
import type { PaymentRow } from './provider.ts'
import type { PaymentQueries } from './queries.ts'
import { REFERENCE_RE, type PaymentView } from './request.ts'
import type { createStarter } from './start.ts'

/** A reference as asked about: anything else is 400 before a row is read. */
export function checkReference(transactionId: unknown): string {
  const tid = String(transactionId ?? '').trim()
  if (!REFERENCE_RE.test(tid)) throw badRequest('Invalid transaction ID')
  return tid
}

/**
 * Who may read a payment: admins; the signed-in person who made it; the browser that
 * started it; or whoever also gives the paying phone number. A transaction id alone opens nothing.
 */
export function mayRead(p: Pick<PaymentRow, 'user_id' | 'transaction_id' | 'payer_phone'>, ctx: Ctx, phone?: unknown): boolean {
  if (ctx.user?.role === 'ADMIN') return true
  if (p.user_id) return ctx.user?.id === p.user_id || !!ctx.browser?.owns(p.transaction_id)
  if (ctx.browser?.owns(p.transaction_id)) return true
  const digits = typeof phone === 'string' ? phone.replace(/\D/g, '') : ''
  return !!p.payer_phone && /^\d{9,12}$/.test(digits) && phoneVariants(digits).includes(p.payer_phone)
}

/** What the callback page shows, by what was paid for. */
export type PaidFor = 'data' | 'agent_order' | 'agent' | 'afa' | 'wallet_topup' | 'voucher'

/** What the payer (or the page they came back to) asks about a payment: each answer checks with the gateway while it is open. */
export function createPayerQuestions(deps: {
  queries: PaymentQueries
  starter: Pick<ReturnType<typeof createStarter>, 'checkGateway' | 'submitCode'>
  load: (tid: string) => Promise<PaymentRow | null>
  present: (p: PaymentRow) => PaymentView
}) {
  const { queries, starter, load, present } = deps
  const { checkGateway } = starter

  /** The payment this caller may read, else the same 404 as one that does not exist. */
  async function readable(tid: string, ctx: Ctx, phone?: unknown, message = 'Transaction not found'): Promise<PaymentRow> {
    const existing = await load(tid)
    if (!existing || !mayRead(existing, ctx, phone)) throw notFound(message)
    return existing
  }

  return {
    /** The status for the payer: asks the gateway (at its pace) while open, settles the same single way. */
    async status(transactionId: string, ctx: Ctx = {}, phone?: unknown) {
      const tid = checkReference(transactionId)
      const existing = await readable(tid, ctx, phone)
      const { row } = await checkGateway(tid)
      const p = row ?? existing
      return {
        paymentStatus: p.status,
        message: p.message ?? '',
        extTransactionId: p.ext_transaction_id,
        transactionId: p.transaction_id,
        purpose: p.purpose,
        orderId: p.order_id,
        needsCode: present(p).needsCode
      }
    },

    /** POST /api/payment/:transactionId/code: the payer's voucher or OTP. */
    async submitCode(transactionId: string, code: unknown, ctx: Ctx = {}) {
      const tid = checkReference(transactionId)
      await readable(tid, ctx)
      return present(await starter.submitCode(tid, code, ctx))
    },

    /** GET /api/webhooks/paystack?reference=: the payer is back from the checkout; verify and report. The route checked the reference. */
    async verifyCallback(tid: string, ctx: Ctx = {}, phone?: unknown) {
      const existing = await readable(tid, ctx, phone, 'Payment not found')
      let type: PaidFor =
        existing.purpose === 'afa'
          ? 'afa'
          : existing.purpose === 'agent_fee'
            ? 'agent'
            : existing.purpose === 'wallet_topup' || existing.purpose === 'voucher'
              ? existing.purpose
              : 'data'
      // Asked before the gateway check settles it: nothing may be read after the payment is settled,
      // where a lost connection would answer an error for money that went through.
      if (existing.purpose === 'data' && existing.order_id && (await queries.orderIsAgents(existing.order_id))) type = 'agent_order'
      const { row } = await checkGateway(tid)
      const p = row ?? existing
      return {
        status: p.status === 'SUCCESS' ? 'success' : p.status === 'PENDING' || p.status === 'IN_PROGRESS' ? 'pending' : 'failed',
        paymentStatus: p.status,
        message:
          p.status === 'SUCCESS'
            ? 'Payment completed successfully!'
            : p.message || (p.status === 'FAILED' ? 'There was an issue with your payment.' : 'Payment is still pending'),
        transactionId: p.transaction_id,
        orderId: p.order_id,
        agentId: p.agent_id,
        afaId: p.afa_registration_id,
        type
      }
    }
  }
}
