import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { ACTIVE_AGENT_SQL } from '../../lib/vocabulary.ts'
import { type TierPrice, toTierPrice } from './queries.ts'

// The admins' tiers: their rows, order, prices, an agent's tier and the daily promotion, with the
// typed camelCase rows they return.

export interface Tier {
  id: number
  name: string
  position: number
  promoteAtPesewas: number | null
  mayInvite: boolean
  parentsApprove: boolean
  /** Agents in the tier (an agent never placed in one counts in the first). */
  agents: number
}

/** A tier's editable fields; promoteAt in pesewas. */
export type TierFields = {
  name: string
  promoteAt: number | null
  mayInvite: boolean
  parentsApprove: boolean
}

/** An agent the daily run promotes: the highest tier its delivered sales reach. */
export interface PromotionDue {
  agentId: number
  tierId: number
  tierName: string
  salesPesewas: number
}

type Raw = Record<string, any>
const numOrNull = (v: unknown) => (v == null ? null : Number(v))

const toTier = (r: Raw): Tier => ({
  id: Number(r.id),
  name: r.name,
  position: Number(r.position),
  promoteAtPesewas: numOrNull(r.promote_at_pesewas),
  mayInvite: r.may_invite,
  parentsApprove: r.parents_approve,
  agents: Number(r.agents ?? 0)
})

export function createTierQueries(sequelize: Sequelize) {
  const q = <T extends object = Raw>(sql: string, replacements: Record<string, unknown> = {}, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })

  return {
    async list(): Promise<Tier[]> {
      const rows = await q(
        `SELECT t.*, (SELECT count(*) FROM agents a WHERE COALESCE(a.tier_id, (SELECT id FROM tiers ORDER BY position LIMIT 1)) = t.id) AS agents
         FROM tiers t ORDER BY t.position`
      )
      return rows.map(toTier)
    },

    async byId(tierId: number, t: Transaction): Promise<{ id: number; name: string } | null> {
      const [row] = await q('SELECT id, name FROM tiers WHERE id = :tierId', { tierId }, t)
      return row ? { id: Number(row.id), name: row.name } : null
    },

    /** The edited tier's id, or null when there is none. */
    async update(id: number, fields: TierFields, t: Transaction): Promise<number | null> {
      const [row] = await q(
        `UPDATE tiers SET name = :name, promote_at_pesewas = :promoteAt, may_invite = :mayInvite, parents_approve = :parentsApprove, updated_at = now() WHERE id = :id RETURNING id`,
        { id, ...fields },
        t
      )
      return row ? Number(row.id) : null
    },

    /** A new tier, placed last. */
    async insert(fields: TierFields, t: Transaction): Promise<number> {
      const [row] = await q(
        `INSERT INTO tiers (name, position, promote_at_pesewas, may_invite, parents_approve)
               VALUES (:name, (SELECT COALESCE(max(position) + 1, 0) FROM tiers), :promoteAt, :mayInvite, :parentsApprove) RETURNING id`,
        fields,
        t
      )
      return Number(row!.id)
    },

    /** Holds back other moves and new tiers until `t` ends (see tier-order.ts). */
    async lock(t: Transaction): Promise<void> {
      await sequelize.query('LOCK TABLE tiers IN SHARE ROW EXCLUSIVE MODE', { transaction: t })
    },

    async inOrder(t: Transaction): Promise<{ id: number; name: string }[]> {
      const rows = await q('SELECT id, name FROM tiers ORDER BY position, id', {}, t)
      return rows.map((r) => ({ id: Number(r.id), name: r.name }))
    },

    /** Parks every tier above the dense range, then numbers `ids` 0..n-1 in their order. */
    async renumber(ids: number[], t: Transaction): Promise<void> {
      await q('UPDATE tiers SET position = position + (SELECT max(position) + 1 FROM tiers) RETURNING id', {}, t)
      await q(
        `UPDATE tiers SET position = v.position, updated_at = now() FROM (SELECT unnest(ARRAY[:ids]::int[]) AS id, generate_subscripts(ARRAY[:ids]::int[], 1) - 1 AS position) v
        WHERE tiers.id = v.id RETURNING tiers.id`,
        { ids },
        t
      )
    },

    async allPrices(): Promise<TierPrice[]> {
      const rows = await q('SELECT tier_id, package_id, price_pesewas FROM tier_prices')
      return rows.map(toTierPrice)
    },

    async deletePrice(tierId: number, packageId: number, t: Transaction): Promise<void> {
      await q('DELETE FROM tier_prices WHERE tier_id = :tierId AND package_id = :packageId RETURNING tier_id', { tierId, packageId }, t)
    },

    async upsertPrice(tierId: number, packageId: number, pricePesewas: number, t: Transaction): Promise<void> {
      await q(
        `INSERT INTO tier_prices (tier_id, package_id, price_pesewas) VALUES (:tierId, :packageId, :price)
               ON CONFLICT (tier_id, package_id) DO UPDATE SET price_pesewas = EXCLUDED.price_pesewas, updated_at = now() RETURNING tier_id`,
        { tierId, packageId, price: pricePesewas },
        t
      )
    },

    /** The agent's tier and user, its row locked until `t` ends; null when there is no such agent. */
    async agentForUpdate(agentId: number, t: Transaction): Promise<{ tierId: number | null; userId: number } | null> {
      const [row] = await q('SELECT tier_id, user_id FROM agents WHERE id = :agentId FOR UPDATE', { agentId }, t)
      return row ? { tierId: numOrNull(row.tier_id), userId: Number(row.user_id) } : null
    },

    /** Puts the agent in the tier and records the change. */
    async setAgentTier(agentId: number, from: number | null, tierId: number, how: 'ADMIN' | 'PROMOTION', t: Transaction): Promise<void> {
      await q('UPDATE agents SET tier_id = :tierId, updated_at = now() WHERE id = :agentId RETURNING id', { agentId, tierId }, t)
      await q(
        'INSERT INTO tier_changes (agent_id, from_tier_id, to_tier_id, how) VALUES (:agentId, :from, :to, :how) RETURNING id',
        { agentId, from, to: tierId, how },
        t
      )
    },

    /** A message in one user's inbox. */
    async tellUser(userId: number, m: { title: string; message: string; sender: number | null }, t: Transaction): Promise<void> {
      const [msg] = await q(`INSERT INTO admin_messages (title, message, priority, sender_id) VALUES (:title, :message, 'NORMAL', :sender) RETURNING id`, m, t)
      await q('INSERT INTO admin_message_recipients (message_id, user_id) VALUES (:m, :u) RETURNING id', { m: msg!.id, u: userId }, t)
    },

    /** Every active agent whose delivered sales over the last `days` reach a higher tier's threshold, with the highest such tier. */
    async promotionsDue(days: number): Promise<PromotionDue[]> {
      const rows = await q(
        `WITH sales AS (
           SELECT a.id AS agent_id, COALESCE(a.tier_id, (SELECT id FROM tiers ORDER BY position LIMIT 1)) AS tier_id,
                  (SELECT COALESCE(sum(o.amount_pesewas), 0) FROM orders_view o
                    WHERE o.agent_id = a.id AND o.payment_status = 'SUCCESS' AND o.delivered
                      AND o.delivered_at >= now() - make_interval(days => :days)) AS sales
             FROM agents a WHERE ${ACTIVE_AGENT_SQL})
         SELECT DISTINCT ON (s.agent_id) s.agent_id, t.id AS tier_id, t.name AS tier_name, s.sales
           FROM sales s JOIN tiers cur ON cur.id = s.tier_id
           JOIN tiers t ON t.position > cur.position AND t.promote_at_pesewas IS NOT NULL AND t.promote_at_pesewas <= s.sales
          ORDER BY s.agent_id, t.position DESC`,
        { days }
      )
      return rows.map((r) => ({ agentId: Number(r.agent_id), tierId: Number(r.tier_id), tierName: r.tier_name, salesPesewas: Number(r.sales) }))
    }
  }
}
