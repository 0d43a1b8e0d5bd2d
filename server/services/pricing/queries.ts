import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { preparedFor } from '../../../models/prepared.ts'
import { ACTIVE_AGENT_SQL } from '../../lib/vocabulary.ts'

// The price rule's statements and the price rows agents write (shops, sub-agents), with the typed
// camelCase rows they return: nothing else in pricing reads a snake_case column.

/** The price an actor pays, as the one rule decides it; the actor's standing as the database holds it. */
export interface Buyer {
  id: number
  active: boolean
  tierId: number | null
  parentId: number | null
  parentTierId: number | null
  suspended: boolean
}

export interface TierStep {
  id: number
  position: number
}

/** A tier's own price for a package (pesewas). */
export interface TierPrice {
  tierId: number
  packageId: number
  pricePesewas: number
}

/** Where such prices are kept: one row per (owner, package). Table and column names are ours, never input. */
export type PriceTable = { table: 'shop_prices'; owner: 'shop_id' } | { table: 'sub_agent_prices'; owner: 'parent_agent_id' }

type Raw = Record<string, any>
const numOrNull = (v: unknown) => (v == null ? null : Number(v))

export const toTierPrice = (r: Raw): TierPrice => ({ tierId: Number(r.tier_id), packageId: Number(r.package_id), pricePesewas: Number(r.price_pesewas) })

/** What the price rule reads of a buyer for some packages: its standing, the tiers in their order, the tiers' own prices. */
export interface Standing {
  buyer: Buyer
  tiers: TierStep[]
  prices: TierPrice[]
}

/**
 * The price rule's one read as one JSON column (null: no such agent), for `buyerAndTiers` and for a statement the
 * request sends anyway that knows the buyer (the reseller API's key, ADR 0068): the agent `agentSql`, the packages
 * `packageIdsSql` (an int[]). `standingOfJson` maps it back.
 */
export const standingJson = (agentSql: string, packageIdsSql: string) =>
  `(SELECT json_build_object('id', a.id, 'active', ${ACTIVE_AGENT_SQL}, 'tier_id', a.tier_id, 'parent_agent_id', a.parent_agent_id,
       'parent_tier_id', p.tier_id, 'suspended', a.suspended_by_parent_at IS NOT NULL,
       'tiers', (SELECT COALESCE(json_agg(json_build_object('id', id, 'position', position) ORDER BY position), '[]'::json) FROM tiers),
       'prices', (SELECT COALESCE(json_agg(json_build_object('tier_id', tier_id, 'package_id', package_id, 'price_pesewas', price_pesewas)), '[]'::json)
                    FROM tier_prices WHERE package_id = ANY(${packageIdsSql})))
     FROM agents a LEFT JOIN agents p ON p.id = a.parent_agent_id WHERE a.id = ${agentSql})`

/** A column made by `standingJson` as the price rule takes it. */
export function standingOfJson(j: Raw | null): Standing | null {
  if (!j) return null
  return {
    buyer: {
      id: Number(j.id),
      active: j.active === true,
      tierId: numOrNull(j.tier_id),
      parentId: numOrNull(j.parent_agent_id),
      parentTierId: numOrNull(j.parent_tier_id),
      suspended: j.suspended === true
    },
    tiers: (j.tiers as Raw[]).map((r) => ({ id: Number(r.id), position: Number(r.position) })),
    prices: (j.prices as Raw[]).map(toTierPrice)
  }
}

export function createPricingQueries(sequelize: Sequelize) {
  const q = <T extends object = Raw>(sql: string, replacements: Record<string, unknown>, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })
  const run = preparedFor(sequelize)

  return {
    /**
     * The buyer's standing, the tiers in their order and each tier's own price for the packages asked
     * for: one statement instead of three, since every agent's price needs all of them (an order waits
     * on each round trip). The tiers come back even for a buyer who pays the public price; they are few.
     * Every agent's order and quote reads it: a named statement (ADR 0024), its plan made once per connection.
     */
    async buyerAndTiers(agentId: number, packageIds: number[], t?: Transaction): Promise<Standing | null> {
      const [row] = await run<Raw>(`SELECT ${standingJson('$1::int', '$2::int[]')} AS standing`, [agentId, packageIds], t)
      return standingOfJson(row?.standing ?? null)
    },

    /** The tiers in their order. */
    async tierSteps(t?: Transaction): Promise<TierStep[]> {
      const rows = await q('SELECT id, position FROM tiers ORDER BY position', {}, t)
      return rows.map((r) => ({ id: Number(r.id), position: Number(r.position) }))
    },

    async tierPricesOf(packageIds: number[], t?: Transaction): Promise<TierPrice[]> {
      const rows = await q('SELECT tier_id, package_id, price_pesewas FROM tier_prices WHERE package_id IN (:ids)', { ids: packageIds }, t)
      return rows.map(toTierPrice)
    },

    /** The prices a parent set for its sub-agents per package; `lock` reads them FOR SHARE. */
    async subAgentPrices(parentId: number, packageIds: number[], lock: boolean | undefined, t?: Transaction): Promise<Map<number, number>> {
      const rows = await q(
        `SELECT package_id, price_pesewas FROM sub_agent_prices WHERE parent_agent_id = :parent AND package_id IN (:ids)${lock ? ' FOR SHARE' : ''}`,
        { parent: parentId, ids: packageIds },
        t
      )
      return new Map(rows.map((r) => [Number(r.package_id), Number(r.price_pesewas)]))
    },

    async deletePriceRow(where: PriceTable, ownerId: number, packageId: number, t: Transaction): Promise<void> {
      await q(`DELETE FROM ${where.table} WHERE ${where.owner} = :ownerId AND package_id = :pid RETURNING package_id`, { ownerId, pid: packageId }, t)
    },

    async upsertPriceRow(where: PriceTable, ownerId: number, packageId: number, pricePesewas: number, t: Transaction): Promise<void> {
      await q(
        `INSERT INTO ${where.table} (${where.owner}, package_id, price_pesewas) VALUES (:ownerId, :pid, :price)
         ON CONFLICT (${where.owner}, package_id) DO UPDATE SET price_pesewas = EXCLUDED.price_pesewas, updated_at = now() RETURNING package_id`,
        { ownerId, pid: packageId, price: pricePesewas },
        t
      )
    }
  }
}
