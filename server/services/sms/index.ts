import type { Sequelize, Transaction } from 'sequelize'
import type { Models } from '../../../models/index.ts'
import type { Env } from '../../env.ts'
import type { Logger } from '../../lib/logger.ts'
import { normalizePhone } from '../../lib/phone.ts'
import { createSecretBox } from '../../lib/secret-box.ts'
import { cediToGhs, networkLabel } from '../../lib/vocabulary.ts'
import type { Queue } from '../queue/index.ts'
import type { SettingsService } from '../settings/index.ts'
import { createSmsDispatcher } from './dispatcher.ts'
import type { SmsProvider } from './provider.ts'
import { createSmsQueries } from './queries.ts'

export { textOfWritten } from './queries.ts'
import { createArkeselProvider } from './providers/arkesel.ts'
import { createLogProvider } from './providers/log.ts'

export const SMS_TASK = 'sms.send'

export interface SmsOptions {
  transaction?: Transaction
  /** The text carries a one-time code: never logged, and hidden on the admin SMS page once a real provider sends. */
  sensitive?: boolean
  /**
   * Write the row but queue no job: the caller dispatches it (`dispatchMany`) after its transaction
   * commits, inside work it already runs (the delivery job sends an order's texts: one job per order,
   * not three). Should the caller die first, the sweep sends the QUEUED row (SWEEP_AFTER_SECONDS).
   */
  defer?: boolean
  /** The text is a secret the buyer paid for (a checker PIN): stored sealed, opened only to send it (implies sensitive). */
  sealed?: boolean
}

export { formatSize as formatDataSize } from '../../lib/vocabulary.ts'
export type { ClaimedText } from './dispatcher.ts'

/** Fills {dataSize}, {network}, {recipientNumber} in a settings template; the network as people name it ('Telecel', not the code). */
export function fillTemplate(template: string, vars: { dataSize: string; network: string; recipientNumber: string }): string {
  const filled = { ...vars, network: networkLabel(vars.network, '') }
  return template.replace(/\{(dataSize|network|recipientNumber)\}/g, (_m, k: keyof typeof vars) => filled[k])
}

/**
 * A text as the outbox stores it: the phone normalised, a cedi sign spelled out (many handsets have none), at most
 * 640 characters; null when there is no phone or nothing to say (nothing is written then).
 */
export function outboxText(to: string, message: string): { phone: string; message: string } | null {
  const phone = normalizePhone(to)
  if (!phone || !message.trim()) return null
  return { phone, message: cediToGhs(message).slice(0, 640) }
}

/** ARKESEL_API_KEY set (or SMS_PROVIDER=arkesel) -> Arkesel; otherwise the log provider. */
export function chooseSmsProvider(env: Env, log: Logger): SmsProvider {
  const wanted = env.SMS_PROVIDER ?? (env.ARKESEL_API_KEY ? 'arkesel' : 'log')
  if (wanted === 'arkesel') {
    if (!env.ARKESEL_API_KEY) throw new Error('SMS_PROVIDER=arkesel needs ARKESEL_API_KEY')
    return createArkeselProvider({ baseUrl: env.ARKESEL_BASE_URL, apiKey: env.ARKESEL_API_KEY })
  }
  return createLogProvider(log)
}

export type SmsService = ReturnType<typeof createSmsService>

/**
 * Text messages: `send` writes the sms_outbox row and enqueues its dispatch in the caller's
 * transaction (the message exists exactly when the change that caused it commits); the dispatcher
 * sends it through the provider. A sweep also dispatches any QUEUED row, whatever wrote it.
 */
export function createSmsService(deps: {
  sequelize: Sequelize
  models: Models
  queue: Queue
  settings: SettingsService
  env: Env
  log: Logger
  provider?: SmsProvider
}) {
  const provider = deps.provider ?? chooseSmsProvider(deps.env, deps.log)
  const queries = createSmsQueries(deps.sequelize)
  const box = createSecretBox(deps.env)
  const dispatcher = createSmsDispatcher({ ...deps, provider, retryBaseMs: deps.env.SMS_RETRY_BASE_MS, box })

  const enqueue = (id: number, opts: { transaction?: Transaction } = {}) =>
    deps.queue.enqueue(SMS_TASK, { id }, { transaction: opts.transaction, jobKey: `sms:${id}` })

  async function send(to: string, message: string, opts: SmsOptions = {}): Promise<number | null> {
    const text = outboxText(to, message)
    if (!text) return null
    const { phone } = text
    const id = await queries.insert(phone, opts.sealed ? box.seal(text.message) : text.message, !!(opts.sensitive || opts.sealed), opts.transaction)
    deps.log.debug(opts.sensitive || opts.sealed ? { to: phone, id, sensitive: true } : { to: phone, id, message: text.message }, 'sms queued (outbox)')
    if (!opts.defer) await enqueue(id, opts)
    return id
  }

  /** `send` for many texts: one INSERT for the rows and one for their dispatch jobs (a bulk order's recipients). */
  async function sendMany(texts: { to: string; message: string }[], opts: { transaction?: Transaction } = {}): Promise<number[]> {
    const rows = texts.flatMap((x) => {
      const phone = normalizePhone(x.to)
      return phone && x.message.trim() ? [{ phone, message: cediToGhs(x.message).slice(0, 640) }] : []
    })
    if (!rows.length) return []
    const ids = await queries.insertMany(rows, opts.transaction)
    await deps.queue.enqueueMany(
      ids.map((id) => ({ task: SMS_TASK, payload: { id }, jobKey: `sms:${id}` })),
      opts.transaction
    )
    return ids
  }

  return {
    provider,
    sendMany,
    /** True while no real provider sends (the log provider, a fresh machine): the admin SMS page is then the phone. */
    simulated: provider.name === 'log',
    send,
    /** Queues the dispatch of a row written with `defer` whose caller will not send it after all. */
    enqueue,
    ...dispatcher
  }
}
