import Joi from 'joi'
import { Op } from 'sequelize'
import type { Models } from '../../models/index.ts'
import { dummyHash, hashSecret, randomToken, sha256, verifySecret } from '../lib/crypto.ts'
import { AppError, badRequest, unauthorized } from '../lib/errors.ts'
import type { AuditService } from './audit.ts'
import type { Actor, Ctx, Role } from './context.ts'
import { ACCOUNT_ALERT_FAILURES, type LoginThrottle } from './login-throttle.ts'

export const ACCESS_TTL_SECONDS = 3600
export const REFRESH_TTL_SECONDS = 30 * 24 * 3600
export const INVALID_LOGIN = 'Invalid email or password'

export const loginSchema = Joi.object({
  email: Joi.string().trim().lowercase().max(254).required(),
  password: Joi.string().max(200).required(),
}).messages({ 'any.required': 'Enter email and password', 'string.empty': 'Enter email and password' })

export const changePasswordSchema = Joi.object({
  currentPassword: Joi.string().max(200).required(),
  newPassword: Joi.string().min(6).max(200).required(),
}).messages({
  'any.required': 'All password fields are required',
  'string.empty': 'All password fields are required',
  'string.min': 'Password must be at least 6 characters',
})

export interface IssuedTokens {
  accessToken: string
  refreshToken: string
  expiresIn: number
}

export type AuthService = ReturnType<typeof createAuthService>

export function createAuthService({ models, audit, throttle }: { models: Models; audit: AuditService; throttle: LoginThrottle }) {
  async function loadActor(userId: number): Promise<Actor | null> {
    const user = await models.User.findByPk(userId, { include: [{ model: models.Agent, as: 'agent' }] })
    if (!user) return null
    const u = user.get({ plain: true }) as any
    return {
      id: u.id,
      email: u.email,
      role: u.role as Role,
      name: u.name ?? u.agent?.name ?? null,
      phone: u.phone ?? null,
      agent: u.agent
        ? { id: u.agent.id, name: u.agent.name, phone: u.agent.phone, approved: !!u.agent.approved, paymentStatus: u.agent.paymentStatus ?? null }
        : null,
    }
  }

  async function issue(userId: number, kind: 'access' | 'refresh', ttl: number) {
    const token = randomToken()
    await models.AuthToken.create({ userId, kind, tokenHash: sha256(token), expiresAt: new Date(Date.now() + ttl * 1000) })
    return token
  }

  async function findToken(token: string, kind: 'access' | 'refresh') {
    if (!token || token.length > 200) return null
    return models.AuthToken.findOne({
      where: { tokenHash: sha256(token), kind, revokedAt: null, expiresAt: { [Op.gt]: new Date() } },
    })
  }

  return {
    loadActor,

    async login(input: unknown, ctx: Ctx): Promise<{ actor: Actor; tokens: IssuedTokens }> {
      const { value, error } = loginSchema.validate(input)
      if (error) throw badRequest(error.details[0]!.message)
      await throttle.check(value.email, ctx.ip)
      const user = await models.User.unscoped().findOne({ where: { email: value.email } })
      // Hash even when the account does not exist, so timing does not tell which emails are registered.
      const ok = await verifySecret(value.password, user ? (user.get('passwordHash') as string) : await dummyHash())
      if (!user || !ok) {
        const { blockedSeconds, accountFailures } = await throttle.failed(value.email, ctx.ip)
        if (user && (blockedSeconds !== null || accountFailures === ACCOUNT_ALERT_FAILURES)) {
          // The owner reads it in the audit log: which address, how long it waits, how often the account failed.
          const userId = user.get('id') as number
          await audit.record(
            {
              action: blockedSeconds !== null ? 'LOGIN_THROTTLED' : 'LOGIN_FAILURES_ALERT',
              resource: 'USER',
              resourceId: userId,
              userId,
              severity: accountFailures >= ACCOUNT_ALERT_FAILURES ? 'HIGH' : 'MEDIUM',
              details: { email: value.email, fromAddress: ctx.ip ?? null, waitSeconds: blockedSeconds, failuresOnAccount15m: accountFailures },
            },
            ctx,
          )
        }
        throw unauthorized(INVALID_LOGIN)
      }
      await throttle.succeeded(value.email, ctx.ip)
      const actor = (await loadActor(user.get('id') as number))!
      const tokens = {
        accessToken: await issue(actor.id, 'access', ACCESS_TTL_SECONDS),
        refreshToken: await issue(actor.id, 'refresh', REFRESH_TTL_SECONDS),
        expiresIn: ACCESS_TTL_SECONDS,
      }
      await audit.record({ action: 'LOGIN', resource: 'USER', resourceId: actor.id, userId: actor.id, details: { email: actor.email } }, ctx)
      return { actor, tokens }
    },

    async refresh(refreshToken: unknown): Promise<{ accessToken: string; expiresIn: number }> {
      if (typeof refreshToken !== 'string' || !refreshToken) throw badRequest('refreshToken is required')
      const row = await findToken(refreshToken, 'refresh')
      if (!row) throw unauthorized('Session expired. Please log in again.')
      return { accessToken: await issue(row.get('userId') as number, 'access', ACCESS_TTL_SECONDS), expiresIn: ACCESS_TTL_SECONDS }
    },

    async actorFromAccessToken(token: string): Promise<Actor | null> {
      const row = await findToken(token, 'access')
      return row ? loadActor(row.get('userId') as number) : null
    },

    async revokeAll(userId: number): Promise<void> {
      await models.AuthToken.update({ revokedAt: new Date() }, { where: { userId, revokedAt: null } })
    },

    async logout(ctx: Ctx): Promise<void> {
      if (!ctx.user) return
      await models.AuthToken.update({ revokedAt: new Date() }, { where: { userId: ctx.user.id, revokedAt: null } })
      await audit.record({ action: 'LOGOUT', resource: 'USER', resourceId: ctx.user.id }, ctx)
    },

    async changePassword(input: unknown, ctx: Ctx): Promise<void> {
      if (!ctx.user) throw unauthorized()
      const { value, error } = changePasswordSchema.validate(input)
      if (error) throw badRequest(error.details[0]!.message)
      const user = await models.User.unscoped().findByPk(ctx.user.id)
      if (!user || !(await verifySecret(value.currentPassword, user.get('passwordHash') as string))) {
        throw new AppError(400, 'Current password is incorrect')
      }
      await user.update({ passwordHash: await hashSecret(value.newPassword) })
      await models.AuthToken.update({ revokedAt: new Date() }, { where: { userId: ctx.user.id, revokedAt: null } })
      await audit.record({ action: 'PASSWORD_CHANGED', resource: 'USER', resourceId: ctx.user.id, severity: 'MEDIUM' }, ctx)
    },

    async createUser(input: { email: string; password: string; role: Role; name?: string | null; phone?: string | null }, ctx: Ctx = {}) {
      const user = await models.User.create(
        { email: input.email.trim().toLowerCase(), passwordHash: await hashSecret(input.password), role: input.role, name: input.name ?? null, phone: input.phone ?? null },
        { transaction: ctx.transaction },
      )
      await audit.record({ action: 'USER_CREATED', resource: 'USER', resourceId: user.get('id') as number, details: { role: input.role, email: input.email } }, ctx)
      return user
    },
  }
}
