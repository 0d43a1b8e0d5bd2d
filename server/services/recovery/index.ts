import type { Sequelize } from 'sequelize'
import type { Models } from '../../../models/index.ts'
import type { Env } from '../../env.ts'
import { hashSecret } from '../../lib/crypto.ts'
import { AppError, badRequest, conflict, notFound, tooMany } from '../../lib/errors.ts'
import type { Logger } from '../../lib/logger.ts'
import type { AuditService } from '../audit/index.ts'
import type { Queue } from '../queue/index.ts'
import type { Ctx } from '../context.ts'
import type { SessionsService } from '../auth/sessions.ts'
import type { SettingsService } from '../settings/index.ts'
import type { SmsService } from '../sms/index.ts'
import { identifierKey, parseIdentifier, type RecoveryAccount } from './accounts.ts'
import { CODE_TTL_SECONDS, MAX_CODE_ATTEMPTS, codeHash, newCode, sameHash } from './codes.ts'
import { createRecoveryLimiter } from './limits.ts'
import { createMailer } from './mail.ts'
import { createRecoveryQueries } from './queries.ts'

export const SENT_MESSAGE = 'If an account exists, we have sent a code.'
export const INVALID_CODE = 'Invalid or expired code. Check it, or request a new one.'
export const RESET_DONE = 'Your password was changed. Log in with your new password.'
export const BY_SUPPORT = 'Password reset is done by support. Please contact support to reset your password.'
export const TOO_MANY_REQUESTS = 'Too many reset requests. Please wait a few minutes and try again.'
export const TOO_MANY_TRIES = 'Too many code entries. Please wait a few minutes and try again.'

/** POST /api/auth/forgot */
export interface ForgotInput {
  identifier: string
}
/** POST /api/auth/reset: the password rules are registration's and change-password's, plus the confirm field. */
export interface ResetInput {
  identifier: string
  code: string
  newPassword: string
  confirmPassword: string
}

interface Deps {
  sequelize: Sequelize
  models: Models
  env: Env
  log: Logger
  settings: SettingsService
  audit: AuditService
  sms: SmsService
  sessions: SessionsService
  queue: Queue
  /** The payment simulator is the gateway: the shop runs its simulators on purpose (a fresh machine, a demo). */
  paymentsSimulated: boolean
}

/** The job that looks the account up and sends the code, after the answer has gone. */
export const RECOVERY_TASK = 'recovery-deliver'

/**
 * Account recovery (ADR 0018): a 6-digit code by SMS (the outbox) and by email when SMTP is
 * set, then a new password. Codes and passwords never reach a log, an audit entry or an answer.
 */
export function createRecoveryService(deps: Deps) {
  const { sequelize, env, log, settings, audit, sms, sessions, queue } = deps
  const mailer = createMailer(env)
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the sweep only deletes expired rows, which the limiter's reads skip anyway
  const limiter = createRecoveryLimiter({ sequelize, sweep: env.NODE_ENV !== 'test' })
  const secret = env.SESSION_SECRET ?? 'datahub-recovery-codes'
  const q = createRecoveryQueries(sequelize)

  // Where the payment simulator is the gateway nobody real pays, so the SMS outbox (read on /admin/sms) is an honest
  // phone; once real money moves, a code must reach the person by a real SMS provider or SMTP.
  const available = () => env.NODE_ENV !== 'production' || deps.paymentsSimulated || !sms.simulated || !!mailer
  if (!available())
    log.warn('A payment gateway is configured but no SMS provider and no SMTP: self-service password reset is off; /forgot tells people to contact support.')

  async function siteName() {
    return (await settings.get()).siteName || 'Data Hub'
  }

  async function supportContact() {
    const s = await settings.get()
    return s.whatsappNumber ? s.whatsappNumber : 'support'
  }

  /** Replaces any earlier code with a new one and sends it, in one transaction with its outbox row and audit entry. */
  async function issueCode(account: RecoveryAccount, by: 'self' | 'admin', ctx: Ctx): Promise<{ sms: boolean; email: boolean }> {
    const code = newCode()
    const name = await siteName()
    const viaSms = !!account.phone
    await sequelize.transaction(async (transaction) => {
      await q.saveCode(account.id, codeHash(secret, account.id, code), CODE_TTL_SECONDS, transaction)
      // Stryker disable next-line ConditionalExpression: sms.send skips an empty number itself (normalizePhone(null) is ''), so true changes nothing
      if (viaSms) {
        await sms.send(account.phone!, `${name} password reset code: ${code}. It expires in 10 minutes. Never share it; we will never ask for it.`, {
          transaction,
          sensitive: true
        })
      }
      await audit.record(
        {
          action: 'PASSWORD_RESET_REQUESTED',
          resource: 'USER',
          resourceId: account.id,
          severity: by === 'admin' ? 'HIGH' : 'MEDIUM',
          details: { by, sms: viaSms, email: !!mailer }
        },
        { ...ctx, transaction }
      )
    })
    let email = false
    if (mailer) {
      try {
        await mailer.send(
          account.email,
          `${name} password reset code`,
          `Your ${name} password reset code is ${code}.\nIt expires in 10 minutes. If you did not ask for it, ignore this email; your password stays as it is.`
        )
        email = true
      } catch (err) {
        ctx.log?.warn({ err: { message: (err as Error).message }, userId: account.id }, 'reset email not sent')
      }
    }
    return { sms: viaSms, email }
  }

  /** The work behind a self-service request, after the answer has gone (same answer, same time). */
  async function deliver(raw: string, ctx: Ctx): Promise<void> {
    const id = parseIdentifier(raw)
    if (!id) return
    const account = await q.account(id)
    if (!account) return
    if (!account.phone && !mailer) return
    if (!(await limiter.take('codesPerAccount', String(account.id)))) {
      // Stryker disable next-line ObjectLiteral: a log line's fields, left out like the message texts
      ctx.log?.info({ userId: account.id }, 'reset code not sent: account limit reached')
      return
    }
    await issueCode(account, 'self', ctx)
  }

  /** 503 while self-service reset is off; the routes ask before they read the form, so that answer comes first. */
  function assertAvailable() {
    if (!available()) throw new AppError(503, BY_SUPPORT)
  }

  return {
    available,
    assertAvailable,
    supportContact,

    /** POST /api/auth/forgot: limits first (keyed by address and identifier, never by account), then one answer for all. */
    async request(value: ForgotInput, ctx: Ctx): Promise<{ message: string }> {
      // Stryker disable next-line CallExpression: its one caller, POST /api/auth/forgot, asks first (so the 503 comes before the form's 400)
      assertAvailable()
      const id = parseIdentifier(value.identifier)
      if (!id) throw badRequest('Enter a valid phone number or email')
      if (!(await limiter.take('requestPerIp', ctx.ip ?? 'unknown'))) throw tooMany(TOO_MANY_REQUESTS)
      if (!(await limiter.take('requestPerIdentifier', identifierKey(id)))) throw tooMany(TOO_MANY_REQUESTS)
      // Looking the account up, writing the code and sending happen in a queued job, so the time taken
      // (one insert, whoever asks) says nothing about whether an account exists, and a crash loses nothing.
      await queue.enqueue(RECOVERY_TASK, { identifier: value.identifier, ip: ctx.ip ?? null }, { maxAttempts: 3 })
      return { message: SENT_MESSAGE }
    },

    /** POST /api/auth/reset: code + new password. Every session and token of the account ends on success. */
    async reset(value: ResetInput, ctx: Ctx): Promise<{ message: string }> {
      assertAvailable()
      const id = parseIdentifier(value.identifier)
      if (!id) throw badRequest('Enter a valid phone number or email')
      if (!(await limiter.take('resetPerIp', ctx.ip ?? 'unknown'))) throw tooMany(TOO_MANY_TRIES)
      const account = await q.account(id)
      if (!account) throw badRequest(INVALID_CODE)
      const passwordHash = await sequelize.transaction(async (transaction) => {
        const row = await q.lockCode(account.id, transaction)
        if (
          !row ||
          !row.live ||
          // Stryker disable next-line EqualityOperator,ConditionalExpression: the 5th wrong try deletes the code, so a stored count never reaches 5
          row.attempts >= MAX_CODE_ATTEMPTS
        )
          return null
        if (!sameHash(row.codeHash, codeHash(secret, account.id, value.code))) {
          // The 5th wrong try ends the code: the row goes, and only a new request makes another.
          if (row.attempts + 1 >= MAX_CODE_ATTEMPTS) {
            await q.dropCode(account.id, transaction)
          } else {
            await q.countWrongTry(account.id, transaction)
          }
          return null
        }
        // Single use: the code goes in the same transaction that changes the password.
        await q.dropCode(account.id, transaction)
        const hash = await hashSecret(value.newPassword)
        await q.setPassword(account.id, hash, transaction)
        const tctx: Ctx = { ip: ctx.ip, log: ctx.log, transaction }
        await audit.record(
          { action: 'PASSWORD_RESET', resource: 'USER', resourceId: account.id, userId: account.id, severity: 'HIGH', details: { sms: !!account.phone } },
          tctx
        )
        await sessions.endAll(account.id, { reason: 'PASSWORD_RESET' }, { ...tctx, user: null })
        if (account.phone) {
          await sms.send(account.phone, `Your ${await siteName()} password was changed. Not you? Call ${await supportContact()}`, { transaction })
        }
        return hash
      })
      if (!passwordHash) throw badRequest(INVALID_CODE)
      return { message: RESET_DONE }
    },

    /** An admin sends a reset code to the account's own phone/email; the admin never sees or sets a password. */
    async adminSend(userId: unknown, ctx: Ctx): Promise<{ message: string }> {
      const uid = Number(userId)
      if (!Number.isInteger(uid) || uid < 1) throw badRequest('Invalid user id')
      assertAvailable()
      const account = await q.accountById(uid)
      if (!account) throw notFound('User not found')
      if (!account.phone && !mailer) throw conflict('This account has no phone number to send a code to.')
      const sent = await issueCode(account, 'admin', ctx)
      await audit.record(
        {
          action: 'ADMIN_PASSWORD_RESET_SENT',
          resource: 'USER',
          resourceId: uid,
          severity: 'HIGH',
          details: { email: account.email, sms: sent.sms, emailSent: sent.email }
        },
        ctx
      )
      // An admin resetting an account ends its sessions at once: if it was taken over, the taker is out now.
      await sessions.endAll(uid, { reason: 'ADMIN_PASSWORD_RESET', keepCurrent: true }, ctx)
      const where = sent.sms && sent.email ? "the account's phone and email" : sent.sms ? "the account's phone" : "the account's email"
      return { message: `Password reset code sent to ${where}.` }
    },

    /** The queued half of request(): the job handler. */
    async deliverQueued(payload: { identifier: string; ip?: string | null }): Promise<void> {
      await deliver(payload.identifier, { ip: payload.ip ?? null, log })
    },

    /** Runs the deliveries queued so far (tests; in service the workers do it). */
    async settled(): Promise<void> {
      await queue.drain()
    }
  }
}
