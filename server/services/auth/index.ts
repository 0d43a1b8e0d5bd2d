import crypto from 'node:crypto'
import { Op, type Sequelize } from 'sequelize'
import type { Models } from '../../../models/index.ts'
import { dummyHash, hashSecret, randomToken, sha256, verifySecret } from '../../lib/crypto.ts'
import { AppError, badRequest, unauthorized } from '../../lib/errors.ts'
import type { AuditService } from '../audit/index.ts'
import type { Actor, Ctx, Role } from '../context.ts'
import type { EndedSessions, SessionsService } from './sessions.ts'
import { type ActorRow, createActorQueries } from './queries-actor.ts'
import { ACCOUNT_ALERT_FAILURES, type LoginThrottle } from '../limits/login-throttle.ts'

export const ACCESS_TTL_SECONDS = 3600
export const REFRESH_TTL_SECONDS = 30 * 24 * 3600
export const INVALID_LOGIN = 'Invalid email or password'

/** Sign-in, checked at the edge (routes/auth/schema.ts): the email trimmed and lower-cased. */
export interface LoginInput {
  email: string
  password: string
}

/** A signed-in user's new password, checked at the edge. */
export interface ChangePasswordInput {
  currentPassword: string
  newPassword: string
}

export interface IssuedTokens {
  accessToken: string
  refreshToken: string
  expiresIn: number
}

export type AuthService = ReturnType<typeof createAuthService>

/** An actor's name is its own, else its agent's. */
const named = (u: ActorRow): Actor => ({ ...u, name: u.name ?? u.agent?.name ?? null })

/** The actor of a user's row as the actor's columns read it (`toActorRow`), or null when there is none. */
export function actorOfRow(u: ActorRow | null): Actor | null {
  return u && named(u)
}

export const SESSION_EXPIRED = 'Session expired. Please log in again.'

export function createAuthService({
  sequelize,
  models,
  audit,
  sessions,
  throttle
}: {
  sequelize: Sequelize
  models: Models
  audit: AuditService
  sessions: SessionsService
  throttle: LoginThrottle
}) {
  // A cookie session's actor is kept between loads (signed-in/), dropped by the notices of `users` and `agents` rows:
  // a table the actor's read joins must send one too.
  const actors = createActorQueries(sequelize)
  async function loadActor(userId: number): Promise<Actor | null> {
    if (userId === null || userId === undefined) return null
    const u = await actors.actor(userId)
    return u && named(u)
  }

  /** Tokens of one sign-in share a family: reusing a rotated refresh token ends the whole family. */
  async function issue(userId: number, kind: 'access' | 'refresh', ttl: number, familyId: string, transaction?: Ctx['transaction']) {
    const token = randomToken()
    await models.AuthToken.create({ userId, kind, familyId, tokenHash: sha256(token), expiresAt: new Date(Date.now() + ttl * 1000) }, { transaction })
    return token
  }

  async function findToken(token: string, kind: 'access' | 'refresh') {
    if (!token || token.length > 200) return null
    return models.AuthToken.findOne({
      where: { tokenHash: sha256(token), kind, revokedAt: null, expiresAt: { [Op.gt]: new Date() } }
    })
  }

  return {
    loadActor,

    async login(value: LoginInput, ctx: Ctx): Promise<{ actor: Actor; tokens: IssuedTokens }> {
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
              details: { email: value.email, fromAddress: ctx.ip ?? null, waitSeconds: blockedSeconds, failuresOnAccount15m: accountFailures }
            },
            ctx
          )
        }
        throw unauthorized(INVALID_LOGIN)
      }
      await throttle.succeeded(value.email, ctx.ip)
      const actor = (await loadActor(user.get('id') as number))!
      const family = crypto.randomUUID()
      const tokens = {
        accessToken: await issue(actor.id, 'access', ACCESS_TTL_SECONDS, family),
        refreshToken: await issue(actor.id, 'refresh', REFRESH_TTL_SECONDS, family),
        expiresIn: ACCESS_TTL_SECONDS
      }
      await audit.record({ action: 'LOGIN', resource: 'USER', resourceId: actor.id, userId: actor.id, details: { email: actor.email } }, ctx)
      return { actor, tokens }
    },

    /**
     * Rotation: a refresh token works once and is answered with a new pair of the same family. A token
     * already rotated coming back means two holders (one of them a thief): the whole family ends.
     */
    async refresh(refreshToken: unknown, ctx: Ctx = {}): Promise<{ accessToken: string; refreshToken: string; expiresIn: number }> {
      if (typeof refreshToken !== 'string' || !refreshToken) throw badRequest('refreshToken is required')
      if (refreshToken.length > 200) throw unauthorized(SESSION_EXPIRED)
      const outcome = await sequelize.transaction(async (transaction) => {
        const row = await models.AuthToken.findOne({ where: { tokenHash: sha256(refreshToken), kind: 'refresh' }, lock: transaction.LOCK.UPDATE, transaction })
        if (!row) return null
        const userId = row.get('userId') as number
        const familyId = (row.get('familyId') as string | null) ?? crypto.randomUUID()
        if (row.get('rotatedAt')) {
          await models.AuthToken.update({ revokedAt: new Date() }, { where: { familyId, revokedAt: null }, transaction })
          await audit.record(
            { action: 'REFRESH_TOKEN_REUSED', resource: 'USER', resourceId: userId, userId, severity: 'HIGH', details: { family: familyId } },
            { ...ctx, transaction }
          )
          return null
        }
        if (row.get('revokedAt') || (row.get('expiresAt') as Date) <= new Date()) return null
        await row.update({ rotatedAt: new Date(), revokedAt: new Date() }, { transaction })
        return {
          accessToken: await issue(userId, 'access', ACCESS_TTL_SECONDS, familyId, transaction),
          refreshToken: await issue(userId, 'refresh', REFRESH_TTL_SECONDS, familyId, transaction),
          expiresIn: ACCESS_TTL_SECONDS
        }
      })
      if (!outcome) throw unauthorized(SESSION_EXPIRED)
      return outcome
    },

    /** The actor behind a bearer access token, and the token family (so "other sessions" can spare it). */
    async fromAccessToken(token: string): Promise<{ actor: Actor; familyId: string | null } | null> {
      const row = await findToken(token, 'access')
      if (!row) return null
      const actor = await loadActor(row.get('userId') as number)
      return actor ? { actor, familyId: (row.get('familyId') as string | null) ?? null } : null
    },

    async actorFromAccessToken(token: string): Promise<Actor | null> {
      const row = await findToken(token, 'access')
      return row ? loadActor(row.get('userId') as number) : null
    },

    /** "Log out everywhere": every other cookie session and token family of this user ends. */
    async logoutEverywhere(ctx: Ctx): Promise<EndedSessions> {
      if (!ctx.user) throw unauthorized()
      return sessions.endAll(ctx.user.id, { reason: 'LOGOUT_EVERYWHERE', keepCurrent: true }, ctx)
    },

    async logout(ctx: Ctx): Promise<void> {
      if (!ctx.user) return
      await models.AuthToken.update({ revokedAt: new Date() }, { where: { userId: ctx.user.id, revokedAt: null } })
      await audit.record({ action: 'LOGOUT', resource: 'USER', resourceId: ctx.user.id }, ctx)
    },

    async changePassword(value: ChangePasswordInput, ctx: Ctx): Promise<EndedSessions> {
      if (!ctx.user) throw unauthorized()
      const user = await models.User.unscoped().findByPk(ctx.user.id)
      if (!user || !(await verifySecret(value.currentPassword, user.get('passwordHash') as string))) {
        throw new AppError(400, 'Current password is incorrect')
      }
      const passwordHash = await hashSecret(value.newPassword)
      return sequelize.transaction(async (transaction) => {
        await user.update({ passwordHash }, { transaction })
        const tctx = { ...ctx, transaction }
        await audit.record({ action: 'PASSWORD_CHANGED', resource: 'USER', resourceId: ctx.user!.id, severity: 'MEDIUM' }, tctx)
        // Every other session of this user ends; the one that changed the password stays.
        return sessions.endAll(ctx.user!.id, { reason: 'PASSWORD_CHANGED', keepCurrent: true }, tctx)
      })
    },

    async createUser(input: { email: string; password: string; role: Role; name?: string | null; phone?: string | null }, ctx: Ctx = {}) {
      const user = await models.User.create(
        {
          email: input.email.trim().toLowerCase(),
          passwordHash: await hashSecret(input.password),
          role: input.role,
          name: input.name ?? null,
          phone: input.phone ?? null
        },
        { transaction: ctx.transaction }
      )
      await audit.record(
        { action: 'USER_CREATED', resource: 'USER', resourceId: user.get('id') as number, details: { role: input.role, email: input.email } },
        ctx
      )
      return user
    }
  }
}
