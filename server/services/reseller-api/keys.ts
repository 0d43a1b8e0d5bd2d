import type { Sequelize } from 'sequelize'
import { conflict, notFound } from '../../lib/errors.ts'
import { randomToken, sha256 } from '../../lib/crypto.ts'
import { requireActiveAgent } from '../agents/index.ts'
import type { AuditService } from '../audit/index.ts'
import type { ActorRow } from '../auth/queries-actor.ts'
import type { Ctx } from '../context.ts'
import { createKeyQueries, type ApiKeyRow, type OrderReadsAsked, type OrderReadsFound } from './queries.ts'

/** Keys look like `dh_live_<43 url-safe characters>`: 256 random bits, so a plain SHA-256 is a safe and fast lookup hash. */
export const KEY_PREFIX = 'dh_live_'
export const MAX_KEYS_PER_AGENT = 10

export interface ApiKeyView {
  id: number
  name: string
  prefix: string
  createdAt: string
  lastUsedAt: string | null
}

const present = (r: ApiKeyRow): ApiKeyView => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  createdAt: r.createdAt.toISOString(),
  lastUsedAt: r.lastUsedAt ? r.lastUsedAt.toISOString() : null
})

/** API keys: created by an active agent, shown once, stored hashed, revoked for good. */
export function createApiKeys(deps: { sequelize: Sequelize; audit: AuditService }) {
  const { sequelize, audit } = deps
  const queries = createKeyQueries(sequelize)

  return {
    async list(ctx: Ctx): Promise<ApiKeyView[]> {
      const agent = requireActiveAgent(ctx, 'API keys')
      return (await queries.activeKeys(agent.id)).map(present)
    },

    /** The full key is in this answer only; afterwards only its prefix is known. `name` is checked at the edge (routes/reseller/schema.ts). */
    async create({ name }: { name: string }, ctx: Ctx): Promise<ApiKeyView & { key: string }> {
      const agent = requireActiveAgent(ctx, 'API keys')
      return sequelize.transaction(async (t) => {
        // Serialises key creation per agent, so the cap holds under concurrent requests.
        if ((await queries.lockAndCount(agent.id, t)) >= MAX_KEYS_PER_AGENT)
          throw conflict(`You can have at most ${MAX_KEYS_PER_AGENT} active API keys. Revoke one first.`)
        const key = `${KEY_PREFIX}${randomToken(32)}`
        const row = await queries.insertKey({ agentId: agent.id, name, prefix: key.slice(0, KEY_PREFIX.length + 6), hash: sha256(key) }, t)
        await audit.record(
          { action: 'API_KEY_CREATED', resource: 'AGENT', resourceId: agent.id, severity: 'MEDIUM', details: { keyId: row.id, name, prefix: row.prefix } },
          { ...ctx, transaction: t }
        )
        return { ...present(row), key }
      })
    },

    async revoke(idRaw: unknown, ctx: Ctx): Promise<{ revoked: true }> {
      const agent = requireActiveAgent(ctx, 'API keys')
      const id = Number(idRaw)
      // The two bounds only spare the database a query: ids start at 1, and a number beyond PostgreSQL's integer
      // is compared as a wider number there and matches no row, so either way the answer is this same 404.
      if (
        !Number.isSafeInteger(id) ||
        // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, see above
        id <= 0 ||
        // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, see above
        id > 2_147_483_647
      )
        throw notFound('API key not found')
      return sequelize.transaction(async (t) => {
        const prefix = await queries.revoke(id, agent.id, t)
        if (prefix === null) throw notFound('API key not found')
        await audit.record(
          { action: 'API_KEY_REVOKED', resource: 'AGENT', resourceId: agent.id, severity: 'MEDIUM', details: { keyId: id, prefix } },
          { ...ctx, transaction: t }
        )
        return { revoked: true as const }
      })
    },

    /**
     * The key's agent and user (its row as auth reads an actor), and its request counted in its window of `windowSeconds`
     * (one statement), or null for an unknown or revoked key (nothing counted). Last use is written at most once a minute.
     * `forOrder`: what an order's request asks the same statement to read beside the key (`orderReads`).
     */
    async authenticate(
      raw: string,
      windowSeconds: number,
      forOrder?: OrderReadsAsked
    ): Promise<{
      keyId: number
      agentId: number
      userId: number
      count: number
      reset: number
      actor: ActorRow | null
      orderReads?: OrderReadsFound
    } | null> {
      // The guard only spares a hash and a query: a key failing it matches no stored hash either, so weakening it changes no answer.
      // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: equivalent, see above
      if (!raw.startsWith(KEY_PREFIX) || raw.length > 200) return null
      const row = await queries.keyCounted(sha256(raw), windowSeconds, forOrder)
      // Written at most once a minute per key, so a busy key does not rewrite its row on every request.
      if (row?.stale) await queries.touch(row.id)
      return row
        ? { keyId: row.id, agentId: row.agentId, userId: row.userId, count: row.count, reset: row.reset, actor: row.actor, orderReads: row.orderReads }
        : null
    }
  }
}
