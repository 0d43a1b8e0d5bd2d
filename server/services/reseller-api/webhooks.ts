import axios from 'axios'
import crypto from 'node:crypto'
import type { Sequelize, Transaction } from 'sequelize'
import type { Env } from '../../env.ts'
import { badRequest } from '../../lib/errors.ts'
import type { Logger } from '../../lib/logger.ts'
import { randomToken } from '../../lib/crypto.ts'
import { assertPublicUrl, PrivateAddressError, publicOnlyAgents } from '../../lib/public-address.ts'
import { requireActiveAgent } from '../agents/index.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { Queue } from '../queue/index.ts'
import { ReportedFailure } from '../queue/logger.ts'
import { presentApiOrder, type ApiOrder } from './present.ts'
import { createWebhookQueries } from './queries-webhooks.ts'

export const WEBHOOK_TASK = 'agent-webhook'
/** graphile-worker retries with exponential backoff (about 2 s, 7 s, 20 s ... up to ~1 day over 12 tries). */
export const WEBHOOK_MAX_ATTEMPTS = 12
const SIGNATURE_HEADER = 'X-DataHub-Signature'
const TIMEOUT_MS = 10_000

export type WebhookPayload = {
  id: string
  createdAt: string
} & ({ type: 'order.updated'; data: { order: ApiOrder } } | { type: 'batch.completed'; data: { batch: Record<string, unknown> } })

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the agent's secret>`: the time in the
 * signed text lets receivers refuse old replays (Stripe's scheme, so agents' libraries know it).
 */
export function signWebhook(secret: string, body: string, at = Math.floor(Date.now() / 1000)): string {
  const mac = crypto.createHmac('sha256', secret).update(`${at}.${body}`).digest('hex')
  return `t=${at},v1=${mac}`
}

/** What an agent's software does with a delivery: recompute and compare in constant time, and check the age. */
export function verifyWebhook(secret: string, body: string, header: string, toleranceSeconds = 300, now = Math.floor(Date.now() / 1000)): boolean {
  const parts = Object.fromEntries(
    String(header ?? '')
      .split(',')
      .map((p) => p.split('=', 2) as [string, string])
  )
  const at = Number(parts.t)
  if (!Number.isInteger(at) || !parts.v1 || Math.abs(now - at) > toleranceSeconds) return false
  const expected = Buffer.from(crypto.createHmac('sha256', secret).update(`${at}.${body}`).digest('hex'))
  const got = Buffer.from(parts.v1)
  return got.length === expected.length && crypto.timingSafeEqual(got, expected)
}

/** What the portal may read back about an agent's webhook: never the secret. */
export interface WebhookSettings {
  url: string | null
  hasSecret: boolean
}

export type AgentWebhooks = ReturnType<typeof createAgentWebhooks>

/** The agent's webhook URL, checked at the edge (routes/reseller/schema.ts); empty or null clears it. */
export interface WebhookInput {
  url: string | null
}

export function createAgentWebhooks(deps: { sequelize: Sequelize; env: Env; log: Logger; queue: Queue; audit: AuditService }) {
  const { sequelize, env, log, queue, audit } = deps
  const hooks = createWebhookQueries(sequelize)

  const newSecret = () => `whsec_${randomToken(32)}`
  // Orders whose agent has no webhook URL, per transaction: one transaction reports a paid order twice
  // (paid, then queued for delivery), and nothing in it sets a URL, so the second report reads nothing.
  const unhooked = new WeakMap<Transaction, Set<number>>()

  return {
    /** The URL and whether a signing secret exists: the secret itself is shown only when it is made (like API keys). */
    async settings(ctx: Ctx): Promise<WebhookSettings> {
      const agent = requireActiveAgent(ctx, 'Webhooks')
      const row = await hooks.settings(agent.id)
      return { url: row?.url ?? null, hasSecret: row?.hasSecret ?? false }
    },

    /** Sets (or clears) the URL. The first URL also makes the signing secret, returned this once; later saves keep it and never return it. */
    async update(input: WebhookInput, ctx: Ctx): Promise<WebhookSettings & { secret?: string }> {
      const agent = requireActiveAgent(ctx, 'Webhooks')
      const url = input.url || null
      if (url && !env.WEBHOOKS_ALLOW_PRIVATE) {
        try {
          assertPublicUrl(url)
        } catch (err) {
          if (err instanceof PrivateAddressError) throw badRequest('Webhook URL must be a public address, not a private or local one')
          throw err
        }
      }
      return sequelize.transaction(async (t) => {
        // The made-here test compares with the candidate secret: only the save that stored it returns it.
        const candidate = newSecret()
        const row = await hooks.setUrl(agent.id, url, candidate, t)
        await audit.record(
          { action: 'WEBHOOK_UPDATED', resource: 'AGENT', resourceId: agent.id, severity: 'MEDIUM', details: { url, secretMade: row.made } },
          { ...ctx, transaction: t }
        )
        return { url: row.url, hasSecret: row.hasSecret, ...(row.made ? { secret: candidate } : {}) }
      })
    },

    /** Replaces the signing secret and returns the new one this once: deliveries from now on are signed with it, so the old one stops verifying. */
    async rotateSecret(ctx: Ctx): Promise<WebhookSettings & { secret: string }> {
      const agent = requireActiveAgent(ctx, 'Webhooks')
      const secret = newSecret()
      return sequelize.transaction(async (t) => {
        const row = await hooks.setSecret(agent.id, secret, t)
        await audit.record(
          { action: 'WEBHOOK_SECRET_ROTATED', resource: 'AGENT', resourceId: agent.id, severity: 'HIGH', details: { url: row?.url ?? null } },
          { ...ctx, transaction: t }
        )
        return { url: row?.url ?? null, hasSecret: true, secret }
      })
    },

    /**
     * Called inside the transaction that changed an order's payment or delivery status: enqueues one
     * signed webhook for the order's agent when they have set a URL. The order as it is now (in this
     * transaction) is the payload, so each change is reported with the state it produced.
     */
    async onOrderStatusChange(orderId: number, opts: { transaction?: Transaction } = {}): Promise<string | null> {
      const t = opts.transaction
      // Stryker disable next-line ConditionalExpression: the memo only spares a read; without it the read finds no URL again
      if (t && unhooked.get(t)?.has(orderId)) return null
      const row = await hooks.hookedOrder(orderId, t)
      if (!row?.webhookUrl) {
        // Stryker disable next-line ConditionalExpression: not remembering only costs the next report a read
        if (t) unhooked.set(t, (unhooked.get(t) ?? new Set()).add(orderId))
        return null
      }
      const payload: WebhookPayload = {
        id: `evt_${crypto.randomUUID()}`,
        type: 'order.updated',
        createdAt: new Date().toISOString(),
        data: { order: presentApiOrder(row) }
      }
      return queue.enqueue(WEBHOOK_TASK, { agentId: row.agentId, payload }, { transaction: opts.transaction, maxAttempts: WEBHOOK_MAX_ATTEMPTS })
    },

    /**
     * `onOrderStatusChange` for many orders in one read and one insert of jobs, `times` events each
     * (a bulk order's lines: paid, then queued, reported as the single path reports them).
     */
    async onOrdersStatusChange(orderIds: number[], times: number, opts: { transaction?: Transaction } = {}): Promise<number> {
      if (!orderIds.length) return 0
      const rows = await hooks.hookedOrders(orderIds, opts.transaction)
      const createdAt = new Date().toISOString()
      const jobs = rows.flatMap((row) => {
        const order = presentApiOrder(row)
        return Array.from({ length: times }, () => ({
          task: WEBHOOK_TASK,
          payload: {
            agentId: row.agentId,
            payload: { id: `evt_${crypto.randomUUID()}`, type: 'order.updated', createdAt, data: { order } } satisfies WebhookPayload
          },
          maxAttempts: WEBHOOK_MAX_ATTEMPTS
        }))
      })
      return queue.enqueueMany(jobs, opts.transaction)
    },

    /** A bulk order whose every line has ended (ADR 0039), in the transaction of the change that ended the last one. */
    async onBatchCompleted(agentId: number, batch: Record<string, unknown>, opts: { transaction?: Transaction } = {}): Promise<string | null> {
      if (!(await hooks.url(agentId, opts.transaction))) return null
      const payload: WebhookPayload = { id: `evt_${crypto.randomUUID()}`, type: 'batch.completed', createdAt: new Date().toISOString(), data: { batch } }
      return queue.enqueue(WEBHOOK_TASK, { agentId, payload }, { transaction: opts.transaction, maxAttempts: WEBHOOK_MAX_ATTEMPTS })
    },

    /** The job: POST the event to the agent's current URL, signed with the current secret; any non-2xx answer throws, so the queue retries. */
    async deliver(job: { agentId: number; payload: WebhookPayload }, attempt = 1): Promise<'sent' | 'skipped'> {
      const agent = await hooks.urlAndSecret(job.agentId)
      if (!agent?.url || !agent.secret) return 'skipped'
      const body = JSON.stringify(job.payload)
      // Checked again on every send: names are resolved when connecting, so a name that later points inward is refused too.
      if (!env.WEBHOOKS_ALLOW_PRIVATE) assertPublicUrl(agent.url)
      const host = new URL(agent.url).host
      const res = await axios
        .post(agent.url, body, {
          ...(env.WEBHOOKS_ALLOW_PRIVATE ? {} : publicOnlyAgents()),
          headers: {
            'Content-Type': 'application/json',
            'User-Agent': 'DataHub-Webhooks/1',
            [SIGNATURE_HEADER]: signWebhook(agent.secret, body),
            'X-DataHub-Event': job.payload.type,
            'X-DataHub-Delivery': job.payload.id,
            'X-DataHub-Attempt': String(attempt)
          },
          timeout: TIMEOUT_MS,
          maxRedirects: 0,
          validateStatus: () => true,
          transformRequest: [(d: unknown) => d]
        })
        .catch((err: unknown) => {
          throw failed(host, { error: errorCode(err) }, attempt)
        })
      if (
        // Stryker disable next-line ConditionalExpression: Node handles 1xx answers itself and never ends a request with one, so this half alone is never true
        res.status < 200 ||
        res.status >= 300
      )
        throw failed(host, { status: res.status }, attempt)
      return 'sent'
    }
  }

  // The host, the answer and the attempt only: the request holds a signature valid for minutes and the
  // order with the recipient's number, and an agent's endpoint being down is no error of the shop's.
  // ("error", not "code": the logger redacts every "code" field, meant for reset codes.)
  function failed(host: string, answer: { status: number } | { error: string }, attempt: number): ReportedFailure {
    // Stryker disable all: a log line's fields and words, left out like the texts
    log.warn(
      { host, ...answer, attempt },
      attempt < WEBHOOK_MAX_ATTEMPTS ? 'agent webhook failed; the queue will retry' : 'agent webhook failed; no more retries'
    )
    // Stryker restore all
    return new ReportedFailure(
      `agent webhook to ${host}: ${'status' in answer ? `answered ${answer.status}` : answer.error}`,
      'error' in answer ? answer.error : undefined
    )
  }
}

/** A failed request as a short code (ECONNREFUSED, ECONNABORTED for a timeout, EPRIVATEADDRESS...), never its message or config. */
export function errorCode(err: unknown): string {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null
  const code = e?.code ?? e?.cause?.code
  return typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? code : 'NETWORK_ERROR'
}
