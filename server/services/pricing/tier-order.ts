import type { Sequelize } from 'sequelize'
import { badRequest, notFound } from '../../lib/errors.ts'
import { parseId } from '../agents/index.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import { createTierQueries } from './queries-tiers.ts'

/** Which way a tier moves, checked at the edge (routes/tiers/schema.ts). */
export interface TierMoveInput {
  direction: 'up' | 'down'
}

/**
 * Moves a tier one place up or down the list (ADR 0041). The order decides which tier's price an empty
 * price falls back to, which tier is "first" (agents never placed in one) and which tiers are "higher"
 * for promotion, so all of them follow the new order at once.
 */
export async function moveTier(deps: { sequelize: Sequelize; audit: AuditService }, rawId: unknown, value: TierMoveInput, ctx: Ctx) {
  const id = parseId(rawId, 'tier')
  const queries = createTierQueries(deps.sequelize)
  await deps.sequelize.transaction(async (t) => {
    // Two admins moving tiers at once would each renumber from what they read: the table lock makes the
    // second wait and read the first one's order. It also holds back a new tier taking max(position) + 1.
    await queries.lock(t)
    const tiers = await queries.inOrder(t)
    const at = tiers.findIndex((r) => r.id === id)
    if (at < 0) throw notFound('Tier not found')
    const to = value.direction === 'up' ? at - 1 : at + 1
    if (to < 0) throw badRequest(`${tiers[at]!.name} is already the first tier`)
    if (to >= tiers.length) throw badRequest(`${tiers[at]!.name} is already the last tier`)
    const order = tiers.slice()
    ;[order[at], order[to]] = [order[to]!, order[at]!]
    // position is UNIQUE and checked row by row: park every tier above the dense range, then renumber 0..n-1.
    await queries.renumber(
      order.map((r) => r.id),
      t
    )
    await deps.audit.record(
      {
        action: 'TIER_MOVED',
        resource: 'SYSTEM',
        resourceId: `tier:${id}`,
        severity: 'MEDIUM',
        details: { tierId: id, tier: tiers[at]!.name, direction: value.direction, from: at, to, order: order.map((r) => r.name) }
      },
      { ...ctx, transaction: t }
    )
  })
}
