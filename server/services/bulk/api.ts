import type { Sequelize } from 'sequelize'
import { sha256 } from '../../lib/crypto.ts'
import { AppError, forbidden } from '../../lib/errors.ts'
import type { Actor } from '../context.ts'
import type { BulkService } from './index.ts'
import { createBulkAcceptQueries, type KeyUse } from './queries-accept.ts'

/** Thrown inside the batch's transaction when another request already holds this Idempotency-Key: rolls this attempt back. */
class KeyTaken extends Error {}

/**
 * POST /api/v1/batches once per Idempotency-Key: the key is recorded in the batch's own transaction,
 * so the key exists exactly when the batch does; a concurrent request with the same key waits on the
 * key's row, rolls its own attempt back and answers with the first one's batch.
 */
export function createBatchApi(deps: { sequelize: Sequelize; bulk: BulkService }) {
  const { sequelize, bulk } = deps
  const queries = createBulkAcceptQueries(sequelize)
  const findKeyUse = queries.keyUse
  const replay = (use: KeyUse, hash: string): number => {
    if (use.requestHash !== hash || use.orderId) throw new AppError(422, 'This Idempotency-Key was already used with a different request')
    if (!use.batchId) throw new AppError(409, 'A request with this Idempotency-Key is still being processed')
    return use.batchId
  }

  return {
    /** `actor`: the API key's agent, already checked active by the reseller API's authentication; the key checked at the edge. */
    async create(actor: Actor, idempotencyKey: string, body: unknown) {
      if (!actor.agent) throw forbidden('Only agents can place bulk orders')
      const agentActor = actor as Actor & { agent: NonNullable<Actor['agent']> }
      const agentId = agentActor.agent.id
      const hash = sha256(`batch:${JSON.stringify(body ?? null)}`)
      const seen = await findKeyUse(agentId, idempotencyKey)
      if (seen) return { ...(await bulk.forAgent(replay(seen, hash), agentId)), replayed: true }
      try {
        const id = await bulk.acceptApi(body, agentActor, async (batchId, transaction) => {
          const mine = await queries.recordKey({ agentId, key: idempotencyKey, hash, batchId }, transaction)
          if (!mine) throw new KeyTaken()
        })
        return { ...(await bulk.forAgent(id, agentId)), replayed: false }
      } catch (err) {
        // A twin request that won the wallet's lock may have spent the balance this one was refused for.
        const use = await findKeyUse(agentId, idempotencyKey)
        if (!use) throw err instanceof KeyTaken ? new AppError(409, 'A request with this Idempotency-Key is still being processed') : err
        return { ...(await bulk.forAgent(replay(use, hash), agentId)), replayed: true }
      }
    },

    get: (agentId: number, id: unknown) => bulk.forAgent(id, agentId)
  }
}

type BatchApi = ReturnType<typeof createBatchApi>
