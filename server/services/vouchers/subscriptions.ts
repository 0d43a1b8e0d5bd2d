import type { Events } from '../events/index.ts'
import type { VouchersService } from './index.ts'

/**
 * A paid purchase takes its cards from stock in the settlement's transaction (ADR 0040); what got
 * cards is told on, so a shop's margin follows exactly the cards supplied.
 */
export function subscribeVouchers(events: Pick<Events, 'on' | 'publish'>, vouchers: Pick<VouchersService, 'onPaid'>): void {
  events.on('voucher.paid', async ({ payment, settings, outcome }, ctx) => {
    Object.assign(outcome, await vouchers.onPaid(payment, ctx, settings))
    const allocated = Number(outcome.details.allocated ?? 0)
    if (allocated > 0) await events.publish('voucher.allocated', { payment, allocated }, ctx)
  })
}
