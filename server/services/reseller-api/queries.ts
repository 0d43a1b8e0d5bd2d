import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import type { PackageRow } from '../../../models/index.ts'
import { preparedFor } from '../../../models/prepared.ts'
import { ACTOR_COLUMNS, ACTOR_FROM, type ActorRow, toActorRow } from '../auth/queries-actor.ts'
import { windowHitOf } from '../limits/queries.ts'
import { activePackageJson, packageOfJson } from '../packages/queries.ts'
import { standingJson, standingOfJson, type Standing } from '../pricing/queries.ts'
import { ORDER_KEY_USE_COLUMNS, orderKeyUseJoin, orderKeyUseOfRow, type OrderKeyUse } from './queries-idempotency.ts'

// The API keys' statements, and the typed camelCase rows they return.

export interface ApiKeyRow {
  id: number
  name: string
  prefix: string
  createdAt: Date
  lastUsedAt: Date | null
}

/** What a presented key opens: its agent and user, and whether its last use is older than a minute. */
export interface KeyUse {
  id: number
  agentId: number
  userId: number
  stale: boolean
}

/** A presented key's use, its request counted in the key's fixed window (the count so far, the seconds left in it), and its user's row. */
export interface CountedKeyUse extends KeyUse {
  count: number
  reset: number
  /** The key's user as auth reads an actor (`ACTOR_COLUMNS`); null when the row names no user. */
  actor: ActorRow | null
  /** What it read for an order's request, when asked (`OrderReadsAsked`). */
  orderReads?: OrderReadsFound
}

/**
 * The key by its hash, its request counted in its window, and its user as auth reads an actor, in one statement:
 * the counter and the user need only the key's row, so they are a CTE over it and a join to it (an unknown or
 * revoked key counts nothing and reads no one, as before). By name (ADR 0024); like the counter alone, it does not
 * wait for the WAL flush (ADR 0046). `forOrder`: an order's request also reads, by the key's agent, its
 * Idempotency-Key's earlier use ($3) and the active package it names ($4), either parameter null when not asked,
 * so the order sends no statement of its own for them (ADR 0065), the price rule's read for the key's agent and
 * that package (ADR 0068): read for this request, one round trip sooner than inside the order's transaction, and whether
 * the agent has a webhook URL (ADR 0079: an agent without one has its order written by one autocommitted statement).
 */
const keyCounted = (forOrder: boolean) => `WITH k AS (
    SELECT k.id, k.agent_id, ka.user_id, (k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute') AS stale,
      ka.webhook_url IS NOT NULL AS hooked
      FROM api_keys k JOIN agents ka ON ka.id = k.agent_id WHERE k.key_hash = $1 AND k.revoked_at IS NULL),
  w AS (${windowHitOf("'api-key:' || k.id", 'k', '$2::int')})
  SELECT k.id AS key_id, k.agent_id AS key_agent_id, k.user_id AS key_user_id, k.stale, w.count, w.reset, ${ACTOR_COLUMNS}${
    forOrder
      ? `,\n    ${ORDER_KEY_USE_COLUMNS}, ${activePackageJson('$4::int')} AS order_package,
    CASE WHEN $4::int IS NOT NULL THEN ${standingJson('k.agent_id', 'ARRAY[$4::int]')} END AS order_standing, k.hooked AS order_hooked`
      : ''
  }
    FROM k CROSS JOIN w LEFT JOIN (${ACTOR_FROM}) ON u.id = k.user_id${forOrder ? `\n    ${orderKeyUseJoin('k.agent_id', '$3::text')}` : ''}`
const KEY_COUNTED = keyCounted(false)
const KEY_COUNTED_FOR_ORDER = keyCounted(true)

/** What an order's request asks the key's statement to read beside the key: null for either, not asked. */
export interface OrderReadsAsked {
  orderKey: string | null
  packageId: number | null
}

/**
 * What the key's statement read for an order's request: the Idempotency-Key's earlier use (null: never used), the
 * active package (null: none), the price rule's read for the key's agent and that package (null: no package asked)
 * and whether the agent has a webhook URL.
 */
export interface OrderReadsFound {
  keyUse: OrderKeyUse | null
  package: PackageRow | null
  standing: Standing | null
  /** Whether the key's agent had a webhook URL. */
  hooked: boolean
}

type Raw = Record<string, any>
const toKey = (r: Raw): ApiKeyRow => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  createdAt: new Date(r.created_at),
  lastUsedAt: r.last_used_at ? new Date(r.last_used_at) : null
})

export function createKeyQueries(sequelize: Sequelize) {
  const run = preparedFor(sequelize)
  const q = (sql: string, replacements: Record<string, unknown>, transaction?: Transaction) =>
    sequelize.query<Raw>(sql, { replacements, type: QueryTypes.SELECT, transaction })

  return {
    /** The agent's keys not revoked, newest first. */
    async activeKeys(agentId: number): Promise<ApiKeyRow[]> {
      const rows = await q('SELECT * FROM api_keys WHERE agent_id = :id AND revoked_at IS NULL ORDER BY created_at DESC, id DESC', { id: agentId })
      return rows.map(toKey)
    },

    /** Locks the agent's row (key creation per agent one at a time) and counts its keys not revoked. */
    async lockAndCount(agentId: number, t: Transaction): Promise<number> {
      await sequelize.query('SELECT id FROM agents WHERE id = :id FOR UPDATE', { replacements: { id: agentId }, transaction: t })
      const [n] = await q('SELECT count(*) AS n FROM api_keys WHERE agent_id = :id AND revoked_at IS NULL', { id: agentId }, t)
      return Number(n!.n)
    },

    async insertKey(k: { agentId: number; name: string; prefix: string; hash: string }, t: Transaction): Promise<ApiKeyRow> {
      const [row] = await q('INSERT INTO api_keys (agent_id, name, prefix, key_hash) VALUES (:agentId, :name, :prefix, :hash) RETURNING *', k, t)
      return toKey(row!)
    },

    /** Revokes the agent's key; its prefix, or null when there was none to revoke. */
    async revoke(id: number, agentId: number, t: Transaction): Promise<string | null> {
      const [row] = await q(
        'UPDATE api_keys SET revoked_at = now() WHERE id = :id AND agent_id = :agentId AND revoked_at IS NULL RETURNING id, prefix',
        { id, agentId },
        t
      )
      return row ? row.prefix : null
    },

    /** `forOrder`: what an order's request asks to read beside the key (`OrderReadsAsked`). */
    async keyCounted(hash: string, windowSeconds: number, forOrder?: OrderReadsAsked): Promise<CountedKeyUse | null> {
      const [r] = await (forOrder === undefined
        ? run<Raw>(KEY_COUNTED, [hash, windowSeconds])
        : run<Raw>(KEY_COUNTED_FOR_ORDER, [hash, windowSeconds, forOrder.orderKey, forOrder.packageId]))
      if (!r) return null
      const use = {
        id: r.key_id,
        agentId: r.key_agent_id,
        userId: r.key_user_id,
        stale: Boolean(r.stale),
        count: Number(r.count),
        reset: Number(r.reset),
        actor: toActorRow(r)
      }
      return forOrder === undefined
        ? use
        : {
            ...use,
            orderReads: {
              keyUse: orderKeyUseOfRow(r),
              package: packageOfJson(r.order_package),
              standing: standingOfJson(r.order_standing),
              hooked: r.order_hooked === true
            }
          }
    },

    async touch(id: number): Promise<void> {
      await sequelize.query('UPDATE api_keys SET last_used_at = now() WHERE id = :id', { replacements: { id } })
    }
  }
}
