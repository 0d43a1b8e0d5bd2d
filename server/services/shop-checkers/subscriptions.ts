import type { Events } from '../events/index.ts'
import type { ShopCheckersService } from './index.ts'

/** A shop's checker sale earns its agent the margin on the cards allocated, in the settlement's transaction (ADR 0040); money going back takes it back. */
export function subscribeShopCheckers(events: Pick<Events, 'on'>, shopCheckers: Pick<ShopCheckersService, 'creditMargin' | 'reverseMargin'>): void {
  events.on('voucher.allocated', async ({ payment, allocated }, { transaction }) => {
    await shopCheckers.creditMargin(payment, allocated, transaction)
  })
  // A full refund or a reversal after the margin was credited takes it back, once.
  events.on('voucher.moneyReturned', async ({ transactionId, why }, ctx) => {
    await shopCheckers.reverseMargin(transactionId, why, ctx)
  })
}
