import type { Models } from '../../../models/index.ts'
import { createFollowUp } from './follow-up.ts'
import { createPlacing, type PlacingDeps } from './place.ts'
import { createOrderQueries } from './queries.ts'
import { presentOrder } from './view.ts'

export { PURCHASES_DISABLED, PRICE_CHANGED } from './place.ts'
export { PRUNE_CANDIDATES_TASK } from './exports.ts'
export type { ApiOrderInput, PlaceOptions, PlaceOrderInput, ShopQuote } from './input.ts'

export type OrdersService = ReturnType<typeof createOrdersService>

/**
 * Orders, as every channel places and follows them: placing (place.ts, its input checked once by
 * input.ts), paying, looking up and completing one (follow-up.ts), the statements (queries.ts).
 */
export function createOrdersService(deps: Omit<PlacingDeps, 'queries'> & { models: Models }) {
  const queries = createOrderQueries(deps.sequelize, deps.models)
  const placing = createPlacing({ ...deps, queries })
  const followUp = createFollowUp({ settings: deps.settings, payments: deps.payments, queries, openSettings: placing.openSettings })
  return {
    presentOrder,
    parseApiOrder: placing.parseApiOrder,
    placeOrder: placing.placeOrder,
    createOrder: placing.createOrder,
    ...followUp
  }
}
