import type { Events } from '../events/index.ts'
import type { ShopCheckersService } from './index.ts'

/** A shop's checker sale earns its agent the margin on the cards allocated, in the settlement's transaction (ADR 0040). */
export function subscribeShopCheckers(events: Pick<Events, 'on'>, shopCheckers: Pick<ShopCheckersService, 'creditMargin'>): void {
  events.on('voucher.allocated', async ({ payment, allocated }, { transaction }) => {
    await shopCheckers.creditMargin(payment, allocated, transaction)
  })
}
