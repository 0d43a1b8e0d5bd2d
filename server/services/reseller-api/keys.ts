import Joi from 'joi'
import { QueryTypes, type Sequelize } from 'sequelize'
import { badRequest, conflict, notFound } from '../../lib/errors.ts'
import { randomToken, sha256 } from '../../lib/crypto.ts'
import { requireActiveAgent } from '../agents/index.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'

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

const present = (r: Record<string, any>): ApiKeyView => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  createdAt: new Date(r.created_at).toISOString(),
  lastUsedAt: r.last_used_at ? new Date(r.last_used_at).toISOString() : null
})

const nameSchema = Joi.string().trim().min(1).max(60).required().messages({ '*': 'Give the key a name (1 to 60 characters)' })

/** API keys: created by an active agent, shown once, stored hashed, revoked for good. */
export function createApiKeys(deps: { sequelize: Sequelize; audit: AuditService }) {
  const { sequelize, audit } = deps
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>) => sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })

  return {
    async list(ctx: Ctx): Promise<ApiKeyView[]> {
      const agent = requireActiveAgent(ctx, 'API keys')
      const rows = await q<Record<string, any>>('SELECT * FROM api_keys WHERE agent_id = :id AND revoked_at IS NULL ORDER BY created_at DESC, id DESC', {
        id: agent.id
      })
      return rows.map(present)
    },

    /** The full key is in this answer only; afterwards only its prefix is known. */
    async create(raw: unknown, ctx: Ctx): Promise<ApiKeyView & { key: string }> {
      const agent = requireActiveAgent(ctx, 'API keys')
      // Stryker disable next-line OptionalChaining: the JSON body parser always hands an object on (no body is {}, a non-JSON body a 415)
      const { value: name, error } = nameSchema.validate((raw as { name?: unknown } | null)?.name)
      if (error) throw badRequest(error.details[0]!.message)
      return sequelize.transaction(async (t) => {
        // Serialises key creation per agent, so the cap holds under concurrent requests.
        await sequelize.query('SELECT id FROM agents WHERE id = :id FOR UPDATE', { replacements: { id: agent.id }, transaction: t })
        const [n] = await sequelize.query<{ n: string }>('SELECT count(*) AS n FROM api_keys WHERE agent_id = :id AND revoked_at IS NULL', {
          replacements: { id: agent.id },
          type: QueryTypes.SELECT,
          transaction: t
        })
        if (Number(n!.n) >= MAX_KEYS_PER_AGENT) throw conflict(`You can have at most ${MAX_KEYS_PER_AGENT} active API keys. Revoke one first.`)
        const key = `${KEY_PREFIX}${randomToken(32)}`
        const [row] = await sequelize.query<Record<string, any>>(
          'INSERT INTO api_keys (agent_id, name, prefix, key_hash) VALUES (:agentId, :name, :prefix, :hash) RETURNING *',
          { replacements: { agentId: agent.id, name, prefix: key.slice(0, KEY_PREFIX.length + 6), hash: sha256(key) }, type: QueryTypes.SELECT, transaction: t }
        )
        await audit.record(
          { action: 'API_KEY_CREATED', resource: 'AGENT', resourceId: agent.id, severity: 'MEDIUM', details: { keyId: row!.id, name, prefix: row!.prefix } },
          { ...ctx, transaction: t }
        )
        return { ...present(row!), key }
      })
    },

    async revoke(idRaw: unknown, ctx: Ctx): Promise<{ revoked: true }> {
      const agent = requireActiveAgent(ctx, 'API keys')
      const id = Number(idRaw)
      if (!Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) throw notFound('API key not found')
      return sequelize.transaction(async (t) => {
        const [row] = await sequelize.query<{ id: number; prefix: string }>(
          'UPDATE api_keys SET revoked_at = now() WHERE id = :id AND agent_id = :agentId AND revoked_at IS NULL RETURNING id, prefix',
          { replacements: { id, agentId: agent.id }, type: QueryTypes.SELECT, transaction: t }
        )
        if (!row) throw notFound('API key not found')
        await audit.record(
          { action: 'API_KEY_REVOKED', resource: 'AGENT', resourceId: agent.id, severity: 'MEDIUM', details: { keyId: id, prefix: row.prefix } },
          { ...ctx, transaction: t }
        )
        return { revoked: true as const }
      })
    },

    /** The key's agent and user, or null for an unknown or revoked key. Last use is written at most once a minute. */
    async authenticate(raw: string): Promise<{ keyId: number; agentId: number; userId: number } | null> {
      // The guard only spares a hash and a query: a key failing it matches no stored hash either, so weakening it changes no answer.
      // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: equivalent, see above
      if (!raw.startsWith(KEY_PREFIX) || raw.length > 200) return null
      const [row] = await q<{ id: number; agent_id: number; user_id: number; stale: boolean }>(
        `SELECT k.id, k.agent_id, a.user_id, (k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute') AS stale
         FROM api_keys k JOIN agents a ON a.id = k.agent_id WHERE k.key_hash = :hash AND k.revoked_at IS NULL`,
        { hash: sha256(raw) }
      )
      // Written at most once a minute per key, so a busy key does not rewrite its row on every request.
      if (row?.stale) await sequelize.query('UPDATE api_keys SET last_used_at = now() WHERE id = :id', { replacements: { id: row.id } })
      return row ? { keyId: row.id, agentId: row.agent_id, userId: row.user_id } : null
    }
  }
}
