import type { Settings } from '../settings/index.ts'
import type { SettleDeps } from './settle-deps.ts'

/** The message of a payment paid from its agent's wallet, as its settlement writes it. */
export const WALLET_PAID = 'Paid from wallet'

/**
 * How a payment covered by money already held (a wallet's debit) is written settled by its order's own
 * statement, so that no settling UPDATE follows it (ADR 0072): what `settle` would decide for a success of
 * exactly the price in GHS under these settings. The order is queued while delivery is automatic; the
 * commission is `commissions.ofPaid`'s (null: none), written only for an order of this amount.
 */
export function settledOnWrite(
  deps: Pick<SettleDeps, 'delivery' | 'commissions'>,
  amountPesewas: number,
  settings: Settings
): { message: string; queue: boolean; commission: [number | null, string, number] } {
  return {
    message: WALLET_PAID,
    queue: !!deps.delivery && settings.deliveryMode !== 'manual',
    commission: deps.commissions.ofPaid(amountPesewas, settings)
  }
}
