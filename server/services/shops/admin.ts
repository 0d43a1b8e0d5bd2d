import type { Sequelize } from 'sequelize'
import { conflict, notFound } from '../../lib/errors.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { ShopQueries, ShopStatus } from './queries.ts'
import { presentFigures, presentShop } from './view.ts'

/** The back office's shops: the list with figures, suspend and reopen. */
export function createShopAdmin(deps: { sequelize: Sequelize; queries: ShopQueries; audit: AuditService; changed: (shopId: number) => void }) {
  const { sequelize, queries, audit, changed } = deps
  return {
    /** Every shop with its agent, status and figures. */
    async list() {
      const rows = await queries.listWithAgents()
      const fig = await queries.figures(rows.map((r) => r.id))
      return {
        shops: rows.map((r) => ({
          ...presentShop(r),
          agentId: r.agentId,
          agentName: r.agentName,
          agentPhone: r.agentPhone,
          suspendedReason: r.suspendedReason,
          createdAt: new Date(r.createdAt).toISOString(),
          ...presentFigures(fig.get(r.id))
        }))
      }
    },

    /**
     * Suspend (its page says it is closed, nothing can be bought) or reopen a shop; audited. The id and
     * the reason (required to suspend) arrive checked by the route's schema.
     */
    async setStatus(shopId: number, status: ShopStatus, reason: string, ctx: Ctx) {
      const view = await sequelize.transaction(async (t) => {
        const row = await queries.setStatus(shopId, status, status === 'SUSPENDED' ? reason : null, t)
        if (!row) {
          if (!(await queries.exists(shopId, t))) throw notFound('Shop not found')
          throw conflict(status === 'SUSPENDED' ? 'This shop is already suspended' : 'This shop is not suspended')
        }
        await audit.record(
          {
            action: status === 'SUSPENDED' ? 'SHOP_SUSPENDED' : 'SHOP_UNSUSPENDED',
            resource: 'SHOP',
            resourceId: shopId,
            severity: 'MEDIUM',
            details: { slug: row.slug, reason: reason || undefined }
          },
          { ...ctx, transaction: t }
        )
        return presentShop(row)
      })
      changed(shopId)
      return view
    }
  }
}
