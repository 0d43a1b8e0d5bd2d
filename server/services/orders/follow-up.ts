import type { OrderRow } from '../../../models/index.ts'
import { conflict, notFound } from '../../lib/errors.ts'
import { phoneVariants } from '../../lib/phone.ts'
import type { Ctx } from '../context.ts'
import { methodOf, type PaymentsService } from '../payments/index.ts'
import type { Settings, SettingsService } from '../settings/index.ts'
import type { OrderQueries } from './queries.ts'
import { forLookup, presentOrder, type OrderView } from './view.ts'

export const FINALIZE_NEEDS_SUCCESS = 'Payment must be successful before finalizing order'

const STATUS_INFO: Record<string, string> = {
  PENDING: 'The payment has not been confirmed yet. Approve the prompt on your phone, then try again.',
  IN_PROGRESS: 'The payment is still in progress. Complete it on your phone, then try again.',
  FAILED: 'The payment failed. You can retry the payment.',
  EXPIRED: 'The payment expired before it was completed. Please place a new order.'
}

/** The payment step of the spec's two-step client, for an order createOrder made. */
export interface OrderPaymentInput {
  transactionId: string
  payerPhone?: string | null
  payerNetwork?: string | null
  email?: string | null
  callbackUrl?: string | null
}

/** An order's owner (or an admin) may touch it; anyone else is told it does not exist. */
export function assertMayTouch(order: Pick<OrderRow, 'userId'>, ctx: Ctx) {
  if (order.userId && ctx.user?.role !== 'ADMIN' && ctx.user?.id !== order.userId) throw notFound('Order not found')
}

/** What a buyer does with a placed order: pays it (two-step client), finds it by phone, completes it, reads it. */
export function createFollowUp(deps: { settings: SettingsService; payments: PaymentsService; queries: OrderQueries; openSettings: () => Promise<Settings> }) {
  const { settings, payments, queries, openSettings } = deps

  return {
    /** Payment for an order made by createOrder; the amount is the order's, never the client's. */
    async requestPaymentForOrder(input: OrderPaymentInput, ctx: Ctx = {}) {
      const s = await openSettings()
      const order = await queries.byTransactionId(String(input.transactionId))
      if (!order) return null
      assertMayTouch(order, ctx)
      // A visitor's order is paid from the browser that placed it: its transaction id alone is not enough.
      if (!order.userId && ctx.browser && !ctx.browser.owns(String(input.transactionId))) throw notFound('Order not found')
      if (order.paymentStatus !== 'PENDING') throw conflict('This order is no longer awaiting payment. Please start a new order.')
      const method = methodOf(s)
      const payer = payments.payerFor(method, input, ctx)
      if (payer.phone) await queries.setPaymentPhone(order, payer.phone)
      return payments.request(
        {
          purpose: 'data',
          amountPesewas: order.amountPesewas,
          transactionId: order.paymentTransactionId!,
          payerPhone: input.payerPhone,
          payerNetwork: input.payerNetwork,
          email: input.email,
          orderId: order.id,
          userId: order.userId,
          method,
          callbackUrl: input.callbackUrl
        },
        ctx
      )
    },

    /**
     * Orders whose recipient (or, for a visitor's purchase, paying phone) is this number, newest first.
     * `phone` is already in its local form (the route's schema parsed it): either spelling matches.
     */
    async lookupByPhone(phone: string, ctx: Ctx = {}): Promise<OrderView[]> {
      const rows = await queries.byPhone(phoneVariants(phone))
      const seenBy = { owns: (tid: string) => !!ctx.browser?.owns(tid), userId: ctx.user?.id ?? null }
      return rows.map((r) => forLookup(presentOrder(r), r.userId ?? null, seenBy))
    },

    /**
     * "Complete Order": the client may only ask (the route's schema lets only SUCCESS through); the
     * gateway decides. An open payment is checked with the gateway first (settled the one exactly-once
     * way), then the order's status is reported.
     */
    async finalize(orderId: number, ctx: Ctx = {}) {
      let order = await queries.byId(orderId)
      if (!order) throw notFound('No order ID found. Please try the payment process again.')
      assertMayTouch(order, ctx)
      const tid = order.paymentTransactionId
      if (tid && !['SUCCESS', 'FAILED', 'EXPIRED'].includes(order.paymentStatus)) {
        await payments.refresh(tid)
        order = (await queries.byId(orderId))!
      }
      const s = await settings.get()
      if (order.paymentStatus === 'SUCCESS') {
        return {
          message: order.agentId ? s.agentSuccessMessage : s.buySuccessMessage,
          currentStatus: 'SUCCESS',
          info: 'Payment confirmed. Your data will be delivered shortly.'
        }
      }
      // Only the status: order ids are sequential, so the answer must not carry the order's phone numbers.
      return { message: FINALIZE_NEEDS_SUCCESS, currentStatus: order.paymentStatus, info: STATUS_INFO[order.paymentStatus] ?? '' }
    },

    async get(id: number, ctx: Ctx = {}): Promise<OrderView> {
      const order = await queries.viewById(id)
      if (!order) throw notFound('Order not found')
      assertMayTouch(order, ctx)
      return presentOrder(order)
    }
  }
}
