import { toGhs } from '../../lib/money.ts'
import type { Ctx } from '../context.ts'
import type { Settings } from '../settings/index.ts'
import { fillTemplate, formatDataSize, outboxText } from '../sms/index.ts'
import type { SettledOnWrite } from '../wallet/queries.ts'
import type { SettleBefore, SettleWritten, TextOrder } from './queries-settle.ts'
import type { SettleDeps } from './settle-deps.ts'

/** The message of a payment paid from its agent's wallet, as its settlement writes it. */
export const WALLET_PAID = 'Paid from wallet'

/** The paying agent's own order, as its text needs it: the agent's phone and what the order is. */
export interface OwnOrderText {
  agentPhone: string
  dataSizeMb: number
  network: string
  recipientNumber: string
}

/** The wallet's payment as settlement's audit entry names it. */
export interface WalletPaid {
  transactionId: string
  userId: number | null
  simulated: boolean
}

/**
 * How a payment covered by money already held (a wallet's debit) is written settled by its order's own
 * statement, so that no settling UPDATE follows it (ADR 0072): what `settle` would decide for a success of
 * exactly the price in GHS under these settings. The order is queued while delivery is automatic; the
 * commission is `commissions.ofPaid`'s (null: none), written only for an order of this amount. `entry`: settlement's
 * PAYMENT_SUCCESS entry as `effects` would record it for this payment, but for the order's id and whether its
 * commission was written, which the statement adds from what it wrote (ADR 0079); `effects` then records none.
 */
export function settledOnWrite(
  deps: Pick<SettleDeps, 'delivery' | 'commissions' | 'audit'>,
  amountPesewas: number,
  settings: Settings,
  paid: WalletPaid,
  ctx: Ctx,
  own?: OwnOrderText
): SettledOnWrite {
  const queue = !!deps.delivery && settings.deliveryMode !== 'manual'
  return {
    message: WALLET_PAID,
    queue,
    commission: deps.commissions.ofPaid(amountPesewas, settings),
    entry: deps.audit.ofPaid(
      {
        action: 'PAYMENT_SUCCESS',
        resource: 'PAYMENT',
        resourceId: paid.transactionId,
        severity: 'LOW',
        userId: paid.userId,
        details: {
          transactionId: paid.transactionId,
          purpose: 'data',
          amount: toGhs(amountPesewas),
          gateway: 'wallet',
          method: 'wallet',
          extTransactionId: null,
          status: 'SUCCESS',
          message: WALLET_PAID,
          ...(paid.simulated ? { simulated: true } : {}),
          // What delivery.onPaid answers for the order as written: queued exactly when it is written QUEUED.
          ...(deps.delivery ? { deliveryQueued: queue } : {})
        }
      },
      ctx
    ),
    // The agent's "order received" text, as settlement's effects would send it for the agent paying (ADR 0075):
    // written by the order's statement; null: none (no template, no phone). Undefined without the agent in hand.
    ...(own ? { text: ownOrderText(own, settings) } : {})
  }
}

function ownOrderText(own: OwnOrderText, settings: Settings): { phone: string; message: string } | null {
  if (!settings.smsOrderCreatedAgent) return null
  const vars = { dataSize: formatDataSize(own.dataSizeMb), network: own.network, recipientNumber: own.recipientNumber }
  return outboxText(own.agentPhone, fillTemplate(settings.smsOrderCreatedAgent, vars))
}

/**
 * A gateway success's text and PAYMENT_SUCCESS entry as `effects` would write them for the order paid, handed to the
 * settling statement (ADR 0086): the entry without what only the statement knows (the gateway's id as written, the
 * order's id, the commission and the queueing it wrote); the text only for a customer's order read with the payment
 * (an agent's needs the agent's phone, read in the transaction as before).
 */
export function gatewaySuccessWritten(
  deps: Pick<SettleDeps, 'delivery' | 'audit'>,
  before: SettleBefore,
  order: TextOrder | null,
  settings: Settings,
  w: { status: string; message: string | null },
  ctx: Ctx
): SettleWritten {
  const entry = deps.audit.ofPaid(
    {
      action: 'PAYMENT_SUCCESS',
      resource: 'PAYMENT',
      resourceId: before.transaction_id,
      severity: 'LOW',
      userId: before.user_id,
      details: {
        transactionId: before.transaction_id,
        purpose: before.purpose,
        amount: toGhs(before.amount_pesewas),
        gateway: before.gateway,
        method: before.method,
        status: w.status,
        message: w.message,
        ...(before.simulated ? { simulated: true } : {})
      }
    },
    ctx
  )
  const customers = order && order.agent_id === null && !order.batch_id
  const text = customers
    ? {
        of: order,
        out: settings.smsOrderCreatedUser
          ? outboxText(
              order.payment_phone_number || order.recipient_number,
              fillTemplate(settings.smsOrderCreatedUser, {
                dataSize: formatDataSize(order.data_size_mb),
                network: order.network,
                recipientNumber: order.recipient_number
              })
            )
          : null
      }
    : undefined
  return { entry, deliveryWired: !!deps.delivery, ...(text ? { text } : {}) }
}
