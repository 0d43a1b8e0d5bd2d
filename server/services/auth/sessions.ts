import { QueryTypes, type Sequelize } from 'sequelize'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'

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
  return {
    async endAll(userId: number, opts: { reason: EndReason; keepCurrent?: boolean }, ctx: Ctx = {}): Promise<EndedSessions> {
      const own = opts.keepCurrent && ctx.user?.id === userId
      const keepSid = own ? (ctx.sessionId ?? null) : null
      const keepFamily = own ? (ctx.tokenFamily ?? null) : null
      const t = ctx.transaction
      const [row] = await sequelize.query<{ session_epoch: number }>(
        'UPDATE users SET session_epoch = session_epoch + 1 WHERE id = :userId RETURNING session_epoch',
        { replacements: { userId }, type: QueryTypes.SELECT, transaction: t }
      )
      const [, del] = await sequelize.query(`DELETE FROM session WHERE sess->>'userId' = :uid AND (CAST(:keepSid AS TEXT) IS NULL OR sid <> :keepSid)`, {
        replacements: { uid: String(userId), keepSid },
        transaction: t
      })
      const [, upd] = await sequelize.query(
        `UPDATE auth_tokens SET revoked_at = now()
          WHERE user_id = :userId AND revoked_at IS NULL AND (CAST(:keepFamily AS UUID) IS NULL OR family_id IS DISTINCT FROM CAST(:keepFamily AS UUID))`,
        { replacements: { userId, keepFamily }, transaction: t }
      )
      const ended = { epoch: Number(row?.session_epoch ?? 0), sessions: rowCount(del), tokens: rowCount(upd) }
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

function rowCount(meta: unknown): number {
  return Number((meta as { rowCount?: number } | undefined)?.rowCount ?? 0)
}
