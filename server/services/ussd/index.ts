import os from 'node:os'
import { Op, type Sequelize } from 'sequelize'
import type { Models } from '../../../models/index.ts'
import { createSessionStore } from './session-store.ts'
import { createUssdQueries } from './queries.ts'
import { NO_FLUSH_WAIT, preparedFor } from '../../../models/prepared.ts'
import { verifySecret } from '../../lib/crypto.ts'
import { normalizePhone, phoneVariants } from '../../lib/phone.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { SettingsService } from '../settings/index.ts'

export const PIN_MAX_FAILURES = 5
export const PIN_LOCK_MINUTES = 30

export interface UssdAgent {
  id: number
  userId: number
  name: string
  phone: string
}

export type AccessRefusal = 'not_whitelisted' | 'not_agent' | 'not_approved' | 'not_paid' | 'no_pin' | 'locked'
export type AccessResult = { ok: true; agent: UssdAgent } | { ok: false; reason: AccessRefusal; minutesLeft?: number }

export type PinResult = { ok: true } | { ok: false; locked: true; minutesLeft: number } | { ok: false; locked: false; attemptsLeft: number }

export interface UssdOrderRow {
  id: number
  network: string
  dataSizeMb: number
  recipientNumber: string
  amountPesewas: number
  paymentStatus: string
  paymentTransactionId: string | null
  delivered: boolean
  deliveryStatus: string
  createdAt: Date
}

/**
 * argon2id runs on libuv's threadpool (4 threads) at ~30 ms of CPU each: a burst of PIN entries would
 * take every core and stall every other hop. At most this many run at once; the rest wait their turn.
 */
export const PIN_VERIFY_CONCURRENCY = Math.max(1, os.availableParallelism() - 1)

function limiter(max: number) {
  let active = 0
  const waiting: (() => void)[] = []
  return async function run<T>(fn: () => Promise<T>): Promise<T> {
    // A finishing run hands its slot straight to the next in line.
    if (active < max) active++
    else await new Promise<void>((resolve) => waiting.push(resolve))
    try {
      return await fn()
    } finally {
      const next = waiting.shift()
      if (next) next()
      else active--
    }
  }
}

type Deps = { sequelize: Sequelize; models: Models; settings: SettingsService; audit: AuditService }

/**
 * The USSD channel's own rules: who may dial in (whitelist, agent by phone, approved and paid), the
 * PIN with its per-agent lock, and the agent's orders as the menu shows them. Ordering and payment go
 * through the same services as the web.
 */
export function createUssdService({ sequelize, models, settings, audit }: Deps) {
  const sessions = createSessionStore(sequelize)
  // Every dial, PIN and order checks these: named statements (ADR 0024).
  const run = preparedFor(sequelize)
  const queries = createUssdQueries(sequelize)
  const pinSlot = limiter(PIN_VERIFY_CONCURRENCY)

  const minutesUntil = (d: Date | string) => Math.max(1, Math.ceil((new Date(d).getTime() - Date.now()) / 60_000))

  const isWhitelisted = (phone: string) => queries.isWhitelisted(phoneVariants(phone))

  /** One of the agent's own orders by id (never anyone else's). */
  async function agentOrder(agent: UssdAgent, orderId: number): Promise<UssdOrderRow | null> {
    const order = await models.OrderView.findOne({ where: { id: orderId, [Op.or]: [{ agentId: agent.id }, { userId: agent.userId }] } })
    return order ? (order.get({ plain: true }) as UssdOrderRow) : null
  }

  return {
    sessions,

    /** Whitelist (when enabled) -> an agent with this phone -> approved -> paid -> has a PIN -> not locked. */
    async checkAccess(phone: string): Promise<AccessResult> {
      // The cached settings: a save here clears them, another instance's save arrives by NOTIFY (ADR 0019).
      const s = await settings.get()
      if (s.ussdWhitelistEnabled && !(await isWhitelisted(phone))) return { ok: false, reason: 'not_whitelisted' }
      const a = await queries.agentByPhones(phoneVariants(phone))
      if (!a) return { ok: false, reason: 'not_agent' }
      if (a.paymentStatus !== 'SUCCESS') return { ok: false, reason: 'not_paid' }
      if (!a.approved) return { ok: false, reason: 'not_approved' }
      if (!a.hasPin) return { ok: false, reason: 'no_pin' }
      if (a.lockedUntil) return { ok: false, reason: 'locked', minutesLeft: minutesUntil(a.lockedUntil) }
      return { ok: true, agent: { id: a.id, userId: a.userId, name: a.name, phone: normalizePhone(a.phone) } }
    },

    /**
     * Checks a PIN against the agent's hash. Each attempt is counted BEFORE the hash is compared, in
     * one UPDATE, so parallel sessions cannot get more than 5 guesses per lock period; the 5th
     * attempt sets the lock, which a correct PIN lifts again. Same columns and rules as
     * services.agents.verifyPin (counter back to 0 once locked), which is not race-proof in this way.
     * The PIN itself is never stored or logged. Neither UPDATE waits for the WAL flush (ADR 0024): the
     * hop answers only after a synchronous commit that follows them (the audit entry of a wrong PIN,
     * the dial state saved after a right one), which flushes them too, as the WAL is written in order.
     */
    async verifyPin(agentId: number, pin: string, ctx: Ctx = {}): Promise<PinResult> {
      const [row] = await run<{ attempts: number; locked_until: Date | null; pin_hash: string | null; user_id: number }>(
        `WITH next AS (
           SELECT id, CASE WHEN pin_locked_until IS NOT NULL AND pin_locked_until <= now() THEN 1
                           ELSE pin_failed_attempts + 1 END AS attempts
             FROM agents WHERE id = $1 AND (pin_locked_until IS NULL OR pin_locked_until <= now())
             FOR UPDATE)
         UPDATE agents a SET pin_failed_attempts = CASE WHEN next.attempts >= $2 THEN 0 ELSE next.attempts END,
                pin_locked_until = CASE WHEN next.attempts >= $2 THEN now() + make_interval(mins => $3) END
           FROM next, ${NO_FLUSH_WAIT} WHERE a.id = next.id
         RETURNING next.attempts AS attempts, a.pin_locked_until AS locked_until, a.pin_hash, a.user_id`,
        [agentId, PIN_MAX_FAILURES, PIN_LOCK_MINUTES]
      )
      if (!row) {
        // Stryker disable next-line ObjectLiteral: without the attribute list the row is read whole; the same lock time comes back
        const agent = await models.Agent.findByPk(agentId, { attributes: ['pinLockedUntil'] })
        // Stryker disable next-line OptionalChaining: the agent exists (the UPDATE above found no unlocked row, not no row)
        const until = agent?.get('pinLockedUntil') as Date | null
        return { ok: false, locked: true, minutesLeft: until ? minutesUntil(until) : PIN_LOCK_MINUTES }
      }
      // Stryker disable next-line Regex: the hash refuses any other string too; the check only spares the hashing
      if (/^\d{4}$/.test(pin) && (await pinSlot(() => verifySecret(pin, row.pin_hash)))) {
        await run(`UPDATE agents SET pin_failed_attempts = 0, pin_locked_until = NULL FROM ${NO_FLUSH_WAIT} WHERE id = $1`, [agentId])
        return { ok: true }
      }
      const attempts = Number(row.attempts)
      const locked = attempts >= PIN_MAX_FAILURES
      await audit.record(
        {
          action: locked ? 'USSD_PIN_LOCKED' : 'USSD_PIN_FAILED',
          resource: 'AGENT',
          resourceId: agentId,
          userId: row.user_id,
          severity: locked ? 'HIGH' : 'MEDIUM',
          details: { channel: 'ussd', failedAttempts: attempts, ...(locked ? { lockedMinutes: PIN_LOCK_MINUTES } : {}) }
        },
        ctx
      )
      if (locked) {
        // Stryker disable next-line ObjectLiteral: a log line's fields, left out like its text (the audit entry above is what is tested)
        ctx.log?.warn({ agentId }, 'USSD PIN locked after repeated failures')
        return { ok: false, locked: true, minutesLeft: PIN_LOCK_MINUTES }
      }
      return { ok: false, locked: false, attemptsLeft: PIN_MAX_FAILURES - attempts }
    },

    /** The agent's newest orders (the menu shows 5). */
    async recentOrders(agent: UssdAgent, limit = 5): Promise<UssdOrderRow[]> {
      const rows = await models.OrderView.findAll({
        where: { [Op.or]: [{ agentId: agent.id }, { userId: agent.userId }] },
        order: [
          ['createdAt', 'DESC'],
          ['id', 'DESC']
        ],
        limit
      })
      return rows.map((r) => r.get({ plain: true }) as UssdOrderRow)
    },

    /** The agent's newest order whose transaction id ends with these digits (none of anyone else's). */
    async findOrderByTxSuffix(agent: UssdAgent, digits: string): Promise<UssdOrderRow | null> {
      if (!/^\d{1,20}$/.test(digits)) return null
      const id = await queries.orderIdByTxSuffix(agent.id, agent.userId, digits)
      return id ? agentOrder(agent, id) : null
    },

    agentOrder,

    /** A customer caller's newest orders: those this phone paid for as a visitor (never an agent's). */
    async callerOrders(phone: string, limit = 3): Promise<UssdOrderRow[]> {
      const rows = await models.OrderView.findAll({
        where: { agentId: null, paymentPhoneNumber: { [Op.in]: phoneVariants(phone) } },
        order: [
          ['createdAt', 'DESC'],
          ['id', 'DESC']
        ],
        limit
      })
      return rows.map((r) => r.get({ plain: true }) as UssdOrderRow)
    }
  }
}
