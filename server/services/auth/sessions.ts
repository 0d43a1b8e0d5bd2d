import type { Sequelize } from 'sequelize'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import { createSessionQueries } from './queries-sessions.ts'

/** Why a user's sessions were ended; kept in the audit entry. */
export type EndReason = 'PASSWORD_CHANGED' | 'PASSWORD_RESET' | 'ADMIN_PASSWORD_RESET' | 'LOGOUT_EVERYWHERE' | 'USER_DEACTIVATED'

export interface EndedSessions {
  /** The user's new session epoch: a cookie session kept alive must be stamped with it. */
  epoch: number
  sessions: number
  tokens: number
}

export type SessionsService = ReturnType<typeof createSessionsService>

/**
 * The one way a user's sessions end (ADR 0018): cookie sessions (connect-pg-simple
 * rows, plus the epoch so a racing request cannot write one back) and bearer tokens (access and
 * refresh, every family). `keepCurrent` spares the session or token family the request came in on,
 * only when the actor is that same user.
 */
export function createSessionsService({ sequelize, audit }: { sequelize: Sequelize; audit: AuditService }) {
  const queries = createSessionQueries(sequelize)
  return {
    async endAll(userId: number, opts: { reason: EndReason; keepCurrent?: boolean }, ctx: Ctx = {}): Promise<EndedSessions> {
      const own = opts.keepCurrent && ctx.user?.id === userId
      const keepSid = own ? (ctx.sessionId ?? null) : null
      const keepFamily = own ? (ctx.tokenFamily ?? null) : null
      const t = ctx.transaction
      const ended = {
        epoch: await queries.bumpEpoch(userId, t),
        sessions: await queries.deleteCookieSessions(userId, keepSid, t),
        tokens: await queries.revokeTokens(userId, keepFamily, t)
      }
      await audit.record(
        {
          action: 'SESSIONS_ENDED',
          resource: 'USER',
          resourceId: userId,
          severity: 'MEDIUM',
          details: { reason: opts.reason, sessions: ended.sessions, tokens: ended.tokens, keptCurrent: !!own }
        },
        ctx
      )
      return ended
    }
  }
}
