import { toGhs } from '../../lib/money.ts'
import type { Ctx } from '../context.ts'
import type { Settings } from '../settings/index.ts'
import { fillTemplate, formatDataSize, outboxText } from '../sms/index.ts'
import type { SettledOnWrite } from '../wallet/queries.ts'
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
