import type { Events } from '../events/index.ts'
import type { VouchersService } from './index.ts'

/** A paid purchase takes its cards from stock in the settlement's transaction (ADR 0040). */
export function subscribeVouchers(events: Pick<Events, 'on'>, vouchers: Pick<VouchersService, 'onPaid'>): void {
  events.on('voucher.paid', async ({ payment, settings, outcome }, ctx) => {
    Object.assign(outcome, await vouchers.onPaid(payment, ctx, settings))
  })
}
