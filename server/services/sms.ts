import type { Transaction } from 'sequelize'
import type { Models } from '../../models/index.ts'
import type { Logger } from '../lib/logger.ts'
import { normalizePhone } from '../lib/phone.ts'

/** Where text messages go. The default keeps them in sms_outbox and the log; a real provider plugs in here later. */
export interface SmsOptions {
  transaction?: Transaction
  /** The text carries a one-time code: never logged, and hidden in the admin outbox once a real provider sends. */
  sensitive?: boolean
}

export interface SmsSender {
  send(to: string, message: string, opts?: SmsOptions): Promise<void>
}

export function createOutboxSender({ models, log }: { models: Models; log: Logger }): SmsSender {
  return {
    async send(to, message, opts = {}) {
      const phone = normalizePhone(to)
      if (!phone) return
      await models.SmsOutbox.create({ toPhone: phone, message: message.slice(0, 640), status: 'QUEUED', sensitive: !!opts.sensitive }, { transaction: opts.transaction })
      log.info(opts.sensitive ? { to: phone, sensitive: true } : { to: phone, message }, 'sms queued (outbox)')
    },
  }
}

/** 1024 MB and up read as GB with one decimal, below that as MB (spec section 9). */
export function formatDataSize(mb: number): string {
  return mb >= 1024 ? `${(mb / 1024).toFixed(1)}GB` : `${mb}MB`
}

/** Fills {dataSize}, {network}, {recipientNumber} in a settings template. */
export function fillTemplate(template: string, vars: { dataSize: string; network: string; recipientNumber: string }): string {
  return template.replace(/\{(dataSize|network|recipientNumber)\}/g, (_m, k: keyof typeof vars) => vars[k])
}

export type SmsService = ReturnType<typeof createSmsService>

export function createSmsService(deps: { models: Models; log: Logger; sender?: SmsSender }) {
  const sender = deps.sender ?? createOutboxSender(deps)
  return {
    sender,
    /** True while no real provider sends the outbox (a fresh machine): the outbox page is then the phone. */
    simulated: !deps.sender,
    send: (to: string, message: string, opts?: SmsOptions) => sender.send(to, message, opts),
  }
}
