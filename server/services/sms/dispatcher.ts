import Joi from 'joi'
import type { Sequelize } from 'sequelize'
import type { Logger } from '../../lib/logger.ts'
import { badRequest } from '../../lib/errors.ts'
import { paginationOf } from '../../lib/lists.ts'
import { normalizePhone } from '../../lib/phone.ts'
import type { Queue } from '../queue/index.ts'
import type { SettingsService } from '../settings/index.ts'
import type { SecretBox } from '../../lib/secret-box.ts'
import { SmsError, type SmsProvider } from './provider.ts'
import type { SmsOutboxRow } from '../../../models/rows.ts'
import { createSmsQueries } from './queries.ts'

/** Tries per message before FAILED; waits SMS_RETRY_BASE_MS (10 s), then twice as long each time. */
export const SMS_MAX_ATTEMPTS = 5
/** A QUEUED row nobody enqueued (written by other code), or a SENDING one whose worker died. */
const SWEEP_AFTER_SECONDS = 30

const listSchema = Joi.object({
  page: Joi.number().integer().min(1).max(100000).default(1),
  limit: Joi.number().integer().min(1).max(100).default(20),
  status: Joi.string().uppercase().valid('ALL', 'QUEUED', 'SENDING', 'SENT', 'FAILED').default('ALL'),
  phone: Joi.string()
    .trim()
    .pattern(/^\d{1,12}$/)
    .allow('')
    .default('')
    .messages({ 'string.pattern.base': 'Phone must be digits only' })
}).options({ stripUnknown: true })

/** An outbox row claimed for sending (SENDING, its attempt counted): what a send needs of it. */
export type ClaimedText = Pick<SmsOutboxRow, 'id' | 'toPhone' | 'message' | 'sensitive' | 'attempts'>

export const HIDDEN_CODE = '(one-time code hidden: sent by the SMS provider)'

export function createSmsDispatcher(deps: {
  sequelize: Sequelize
  queue: Queue
  settings: SettingsService
  provider: SmsProvider
  log: Logger
  retryBaseMs: number
  box: SecretBox
}) {
  const { sequelize, queue, provider, log } = deps
  // A sealed text (a checker card's PIN) is opened only on its way to the provider or to a simulated outbox's page.
  const plain = (text: string) => (deps.box.isSealed(text) ? deps.box.open(text) : text)
  const queries = createSmsQueries(sequelize)

  type Outcome = 'SENT' | 'FAILED' | 'RETRY' | 'SKIPPED'

  /**
   * Sends outbox rows (one job's, or an order's texts from its delivery job) with two statements for
   * all of them: claim, then mark SENT. A row already SENT or FAILED is left alone (a job may run
   * twice), and so is one another dispatcher claimed less than SWEEP_AFTER_SECONDS ago (a sweep's
   * job racing the delivery job): only a SENDING row that old (its worker died) is taken over.
   */
  async function dispatchMany(ids: number[]): Promise<Map<number, Outcome>> {
    const outcome = new Map<number, Outcome>(ids.map((id) => [id, 'SKIPPED']))
    if (!ids.length) return outcome
    const rows = await queries.claim(ids, provider.name, SWEEP_AFTER_SECONDS)
    return sendClaimed(rows, outcome)
  }

  /**
   * Sends rows already claimed for this provider (SENDING, their attempt counted), as `dispatchMany` does
   * after its claim: one statement marks those sent. A caller that claims texts in a statement of its own
   * (the delivery's DELIVERED statement) sends them here.
   */
  async function sendClaimed(rows: ClaimedText[], outcome = new Map<number, Outcome>()): Promise<Map<number, Outcome>> {
    if (!rows.length) return outcome
    const sender = (await deps.settings.get()).smsSenderId || 'DataHub'
    const sent: { id: number; mid: string | null }[] = []
    // Settled, not all: a text that went out is marked SENT even when recording another's failure throws.
    const done = await Promise.allSettled(
      rows.map(async (row) => {
        try {
          const { messageId } = await provider.send({ to: row.toPhone, message: plain(row.message), sender, sensitive: !!row.sensitive })
          sent.push({ id: row.id, mid: messageId })
        } catch (err) {
          outcome.set(row.id, await failed(row, err))
        }
      })
    )
    if (sent.length) {
      await queries.markSent(sent)
      for (const r of sent) outcome.set(r.id, 'SENT')
    }
    const broken = done.find((d) => d.status === 'rejected')
    if (broken) throw broken.reason
    return outcome
  }

  /** A failed send: tried again later (SMS_RETRY_BASE_MS doubling) or FAILED for good. */
  async function failed(row: ClaimedText, err: unknown): Promise<Outcome> {
    const id = row.id
    const retryable = err instanceof SmsError ? err.retryable : true
    const error = (err as Error).message.slice(0, 300)
    if (!retryable || row.attempts >= SMS_MAX_ATTEMPTS) {
      await queries.markFailed(id, error)
      log.warn({ smsId: id, error }, 'sms failed for good')
      return 'FAILED'
    }
    await sequelize.transaction(async (t) => {
      await queries.requeue(id, error, t)
      const runAt = new Date(Date.now() + deps.retryBaseMs * 2 ** (row.attempts - 1))
      await queue.enqueue('sms.send', { id }, { transaction: t, jobKey: `sms:${id}`, runAt })
    })
    return 'RETRY'
  }

  /** Sends one outbox row (the sms.send job). */
  async function dispatch(id: number): Promise<Outcome> {
    return (await dispatchMany([id])).get(id)!
  }

  return {
    dispatch,
    dispatchMany,
    sendClaimed,

    /** Puts forgotten rows back on the queue (a scheduled job, every minute). */
    async sweep(): Promise<number> {
      const ids = await queries.forgotten(SWEEP_AFTER_SECONDS)
      for (const id of ids) await queue.enqueue('sms.send', { id }, { jobKey: `sms:${id}`, jobKeyMode: 'preserve_run_at' })
      return ids.length
    },

    /** The admin's list of messages, newest first. */
    async list(input: unknown) {
      const { value, error } = listSchema.validate(input ?? {})
      if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
      const phone = value.phone ? (normalizePhone(value.phone) ?? value.phone) : ''
      const filter = { status: value.status, phone }
      // On a fresh machine nobody else receives these, so the page shows codes; once a real provider
      // sends, a text carrying a one-time code is hidden, so no admin can take over an account with it.
      const simulated = provider.name === 'log'
      const [rows, count] = await Promise.all([queries.page(filter, value.limit, (value.page - 1) * value.limit), queries.count(filter)])
      return {
        provider: provider.name,
        simulated,
        messages: rows.map((r) => ({
          id: r.id,
          to: r.toPhone,
          message: r.sensitive && !simulated ? HIDDEN_CODE : plain(r.message),
          sensitive: !!r.sensitive,
          status: r.status,
          provider: r.provider,
          providerMessageId: r.providerMessageId,
          attempts: r.attempts,
          error: r.error,
          sentAt: r.sentAt,
          createdAt: r.createdAt
        })),
        pagination: paginationOf(value.page, value.limit, count)
      }
    }
  }
}
