import { AppError, conflict, notFound } from '../../lib/errors.ts'
import { formatSize, NETWORK_LABEL } from '../../lib/vocabulary.ts'
import type { Ctx } from '../context.ts'
import type { OrdersService } from '../orders/index.ts'
import { payTokenHash } from './ports.ts'
import type { WhatsappQueries } from './queries.ts'

export interface PayLinkView {
  ref: string
  bundle: string
  recipient: string
  amountPesewas: number
  /** 'open': may be paid now; 'expired' also covers an order no longer awaiting payment. */
  state: 'open' | 'paid' | 'expired'
  transactionId: string
}

/** How the payer pays a link's order (each field null when not given). */
export interface PayLinkInput {
  payerPhone: string | null
  payerNetwork: string | null
  email: string | null
}

/** The page a chat's payment link opens: its one order, and paying it. */
export function createPayLinks(deps: { queries: WhatsappQueries; orders: Pick<OrdersService, 'requestPaymentForOrder'> }) {
  const { queries, orders } = deps

  /**
   * What a payment link shows: its one order (from the server, never the link) and whether it can
   * still be paid. Null for a token that is not a link: the page answers 404, the same for all.
   */
  async function payView(token: unknown): Promise<PayLinkView | null> {
    const t = String(token ?? '')
    if (!/^[\w-]{20,64}$/.test(t)) return null
    const row = await queries.payLinkOrder(payTokenHash(t))
    if (!row) return null
    return {
      ref: row.paymentTransactionId.slice(-8),
      bundle: `${formatSize(row.dataSizeMb)} ${NETWORK_LABEL[row.network as 'MTN'] ?? row.network}`,
      recipient: row.recipientNumber,
      amountPesewas: row.amountPesewas,
      state: row.paymentStatus === 'SUCCESS' ? 'paid' : row.paymentStatus !== 'PENDING' || !row.live ? 'expired' : 'open',
      transactionId: row.paymentTransactionId
    }
  }

  /** Pays a link's order: card checkout or a mobile money prompt as the gateway setting says; refused once paid or expired. */
  async function payByLink(token: unknown, input: PayLinkInput, ctx: Ctx & { callbackUrl: string }) {
    const view = await payView(token)
    if (!view) throw notFound('This payment link is not valid')
    if (view.state === 'paid') throw conflict('This order is already paid')
    if (view.state === 'expired') throw new AppError(410, 'This payment link has expired. Ask for a new one in the WhatsApp chat.')
    // The link is the proof: no browser placed this order, so none is asked to own it.
    const payment = await orders.requestPaymentForOrder(
      { transactionId: view.transactionId, ...input, callbackUrl: ctx.callbackUrl },
      { user: null, ip: ctx.ip, log: ctx.log }
    )
    if (!payment) throw notFound('This payment link is not valid')
    return payment
  }

  return { payView, payByLink }
}
