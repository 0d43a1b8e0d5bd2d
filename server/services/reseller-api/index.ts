import type { Sequelize, Transaction } from 'sequelize'
import type { Env } from '../../env.ts'
import { AppError, forbidden, notFound, unauthorized } from '../../lib/errors.ts'
import { sha256 } from '../../lib/crypto.ts'
import type { Logger } from '../../lib/logger.ts'
import { toGhs } from '../../lib/money.ts'
import { isActiveAgent } from '../../lib/vocabulary.ts'
import type { AuditService } from '../audit/index.ts'
import { actorOfRow } from '../auth/index.ts'
import type { Actor } from '../context.ts'
import type { ApiOrderInput, OrdersService } from '../orders/index.ts'
import type { PricingService, StandingRead } from '../pricing/index.ts'
import type { PackageRow, PackagesService } from '../packages/index.ts'
import type { Queue } from '../queue/index.ts'
import type { WalletService } from '../wallet/index.ts'
import { createApiKeys } from './keys.ts'
import { presentApiOrder, type ApiOrder } from './present.ts'
import { createOrderKeyQueries, orderKeyOfWritten, type OrderKeyUse } from './queries-idempotency.ts'
import { createApiOrderQueries, toApiOrderRow } from './queries-orders.ts'
import type { OrderReadsAsked, OrderReadsFound } from './queries.ts'
import { createAgentWebhooks, WEBHOOK_TASK, type WebhookPayload } from './webhooks.ts'

export { KEY_PREFIX } from './keys.ts'
export type { OrderReadsAsked } from './queries.ts'
export const BAD_KEY = 'Invalid or revoked API key'

/**
 * What an Idempotency-Key is bound to: the fields the caller sent, as checked (a package id sent as
 * text counts as the number). The recipient is taken as sent, not in its local form, because keys
 * stored earlier were hashed that way and a retry must still match them.
 */
function requestHash(input: ApiOrderInput, sent: Record<string, unknown>): string {
  const fields = (Object.keys(input) as Array<keyof ApiOrderInput>).filter((k) => k in sent).sort()
  return sha256(JSON.stringify(fields.map((k) => [k, k === 'recipientNumber' ? sent[k] : input[k]])))
}

const readsFor = (asked: OrderReadsAsked, found: OrderReadsFound, agentId: number): OrderReads => ({
  agentHooked: found.hooked,
  ...(asked.orderKey === null ? {} : { key: { key: asked.orderKey, use: found.keyUse } }),
  ...(asked.packageId === null
    ? {}
    : { packageRead: { id: asked.packageId, row: found.package }, standingRead: { agentId, packageIds: [asked.packageId], standing: found.standing } })
})

/** Thrown when another request already holds this Idempotency-Key: before the order is written, or inside its transaction (rolls this attempt back). */
class KeyTaken extends Error {}

export interface ApiCaller {
  actor: Actor
  agentId: number
  keyId: number
}

/**
 * What the API key's statement read for an order's request (ADR 0065): its Idempotency-Key's earlier use (null: never
 * used), the active package of the id the body named (null: none) and the price rule's read for the key's agent and
 * that package (ADR 0068), each with what it was read for, and whether the agent had a webhook URL (ADR 0079).
 */
export interface OrderReads {
  /** Whether the key's agent had a webhook URL (ADR 0079). */
  agentHooked?: boolean
  key?: { key: string; use: OrderKeyUse | null }
  packageRead?: { id: number; row: PackageRow | null }
  standingRead?: StandingRead
}

/** A key's request rate as X-RateLimit-* and Retry-After tell it. */
export interface ApiRate {
  limit: number
  remaining: number
  resetSeconds: number
  limited: boolean
}

/** The reseller API (ADR 0014): keys, per-key rate limit, agent prices, wallet orders with idempotency, webhooks. */
export function createResellerApi(deps: {
  sequelize: Sequelize
  env: Env
  log: Logger
  audit: AuditService
  packages: PackagesService
  pricing: PricingService
  orders: OrdersService
  wallet: WalletService
  queue: Queue
}) {
  const { sequelize, packages, orders, wallet } = deps
  const keys = createApiKeys(deps)
  const webhooks = createAgentWebhooks(deps)
  const apiOrders = createApiOrderQueries(sequelize)

  const keyQueries = createOrderKeyQueries(sequelize)
  const findKeyUse = keyQueries.keyUse

  async function orderOf(agentId: number, id: number, transaction?: Transaction): Promise<ApiOrder> {
    const row = await apiOrders.agentOrder(agentId, id, transaction)
    // Another agent's order reads exactly like a missing one.
    if (!row) throw notFound('Order not found')
    return presentApiOrder(row)
  }

  function replay(use: OrderKeyUse, hash: string) {
    if (use.requestHash !== hash) throw new AppError(422, 'This Idempotency-Key was already used with a different request')
    if (!use.orderId) throw new AppError(409, 'A request with this Idempotency-Key is still being processed')
    return use.orderId
  }

  return {
    keys,
    webhooks,

    /**
     * Who is calling, and the request counted against the key's rate (a fixed one-minute window per key in
     * PostgreSQL, shared by every instance: the count and the seconds until the window ends, for X-RateLimit-*
     * and Retry-After). 401 for a missing, unknown or revoked key; 403 when the agent may not trade (unapproved,
     * unpaid). The key's counter and its user need only the key's row: the key's one statement counts the request and
     * reads the user as auth reads an actor (`actorOfRow` maps it).
     * A known key's request is counted even when its agent is then refused, as any request on it is.
     * `forOrder`: an order's Idempotency-Key and package id as sent (both checked later, the key at the route, the body by
     * the orders' check; null when not worth asking): the same statement reads the key's earlier use by the key's agent
     * and the active package (`orderReads`, for `createOrder`), so the order sends no read of its own for them.
     */
    async admit(header: string | undefined, forOrder?: OrderReadsAsked): Promise<{ caller: ApiCaller; rate: ApiRate; orderReads?: OrderReads }> {
      const raw = header?.startsWith('Bearer ') ? header.slice(7).trim() : ''
      if (!raw) throw unauthorized('API key required: send Authorization: Bearer <key>')
      const found = await keys.authenticate(raw, 60, forOrder)
      if (!found) throw unauthorized(BAD_KEY)
      const limit = deps.env.API_RATE_LIMIT_PER_MINUTE
      const { count } = found
      const resetSeconds = Math.max(1, found.reset)
      const actor = actorOfRow(found.actor)
      if (!actor || actor.role !== 'AGENT' || !actor.agent) throw unauthorized(BAD_KEY)
      if (!isActiveAgent(actor?.agent)) throw forbidden('Your agent account must be paid and approved to use the API')
      return {
        caller: { actor, agentId: found.agentId, keyId: found.keyId },
        rate: { limit, remaining: Math.max(0, limit - count), resetSeconds, limited: count > limit },
        ...(forOrder && found.orderReads ? { orderReads: readsFor(forOrder, found.orderReads, found.agentId) } : {})
      }
    },

    async listPackages(caller: ApiCaller) {
      const rows = await packages.listActive()
      const quotes = await deps.pricing.quotes(caller.actor, rows)
      return {
        packages: rows.map((p) => ({
          id: p.id,
          network: p.network,
          name: packages.present(p).name,
          dataSizeMB: p.sizeMb,
          price: toGhs(quotes.get(p.id)!.pricePesewas)!
        })),
        currency: 'GHS' as const
      }
    },

    async balance(caller: ApiCaller) {
      return { balance: toGhs(await wallet.balancePesewas(caller.agentId))!, currency: 'GHS' as const }
    },

    getOrder: (caller: ApiCaller, idRaw: unknown) => {
      const id = Number(idRaw)
      if (!Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) throw notFound('Order not found')
      return orderOf(caller.agentId, id)
    },

    /**
     * A wallet-paid order, once per Idempotency-Key: the key is recorded in the order's own
     * transaction, so the key exists exactly when the order does. A concurrent request with the same
     * key waits on the key's row, rolls its own attempt back and answers with the first one's order.
     * The key is checked at the edge (routes/api-v1/schema.ts); the body here, by the orders' one check.
     * `reads`: the key's earlier use and the package as the API key's statement read them (`admit`); without them, they are read here.
     */
    async createOrder(caller: ApiCaller, idempotencyKey: string, body: unknown, reads?: OrderReads): Promise<{ order: ApiOrder; replayed: boolean }> {
      const input = orders.parseApiOrder(body)
      const hash = requestHash(input, body as Record<string, unknown>)
      const known = reads?.key?.key === idempotencyKey ? reads.key.use : undefined
      // A key used before answers with its order, whatever else this attempt would run into: nothing is placed.
      if (known) return { order: await orderOf(caller.agentId, replay(known, hash)), replayed: true }
      // Else the key's earlier use, when the API key's statement did not read it, is read while the order reads its
      // package (two connections, one round trip for both); the order writes nothing until the key is known unused.
      // Either way the key's unique index in the order's own statement is what holds against a concurrent request.
      const seen = known === null ? Promise.resolve(null) : findKeyUse(caller.agentId, idempotencyKey)
      const unused = seen.then((use) => {
        if (use) throw new KeyTaken()
      })
      // Awaited by placeOrder or below; this only keeps a use that placeOrder never reached from going unhandled.
      unused.catch(() => {})
      try {
        // The answer is the order as read in its own transaction (services.orders): after the commit the
        // wallet has paid, and a lost connection must not turn that into an error the caller would retry without its key.
        const placed = await orders.placeOrder(
          input,
          { user: caller.actor },
          {
            admitted: unused,
            packageRead: reads?.packageRead,
            standingRead: reads?.standingRead,
            agentHooked: reads?.agentHooked,
            // Recorded by the order's own INSERT: the key exists exactly when the order does.
            writtenWith: { cte: orderKeyOfWritten, values: [caller.agentId, idempotencyKey, hash], refused: () => new KeyTaken() }
          }
        )
        return { order: presentApiOrder(toApiOrderRow(placed.row!)), replayed: false }
      } catch (err) {
        // A key used before answers with its order, whatever else this attempt ran into meanwhile.
        const use = (await seen) ?? (err instanceof KeyTaken ? await findKeyUse(caller.agentId, idempotencyKey) : null)
        if (!use) throw err
        return { order: await orderOf(caller.agentId, replay(use, hash)), replayed: true }
      }
    },

    /** Registered with the job queue in main.ts. */
    registerTasks(queue: Queue) {
      queue.register<{ agentId: number; payload: WebhookPayload }>(WEBHOOK_TASK, async (payload, job) => {
        await webhooks.deliver(payload, job.attempts)
      })
    }
  }
}
