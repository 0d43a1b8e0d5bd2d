import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'

// The statements that end a user's sessions (sessions.ts), each in the caller's transaction when there is one.

const rowCount = (meta: unknown): number => Number((meta as { rowCount?: number } | undefined)?.rowCount ?? 0)

export function createSessionQueries(sequelize: Sequelize) {
  return {
    /** The user's new session epoch (0 when no such user). */
    bumpEpoch: async (userId: number, t?: Transaction): Promise<number> => {
      const [row] = await sequelize.query<{ session_epoch: number }>(
        'UPDATE users SET session_epoch = session_epoch + 1 WHERE id = :userId RETURNING session_epoch',
        {
          replacements: { userId },
          type: QueryTypes.SELECT,
          transaction: t
        }
      )
      return Number(row?.session_epoch ?? 0)
    },

    /** Deletes the user's cookie sessions but `keepSid`; how many. */
    deleteCookieSessions: async (userId: number, keepSid: string | null, t?: Transaction): Promise<number> => {
      const [, del] = await sequelize.query(`DELETE FROM session WHERE sess->>'userId' = :uid AND (CAST(:keepSid AS TEXT) IS NULL OR sid <> :keepSid)`, {
        replacements: { uid: String(userId), keepSid },
        transaction: t
      })
      return rowCount(del)
    },

    /** Revokes the user's bearer tokens but the `keepFamily` family; how many. */
    revokeTokens: async (userId: number, keepFamily: string | null, t?: Transaction): Promise<number> => {
      const [, upd] = await sequelize.query(
        `UPDATE auth_tokens SET revoked_at = now()
          WHERE user_id = :userId AND revoked_at IS NULL AND (CAST(:keepFamily AS UUID) IS NULL OR family_id IS DISTINCT FROM CAST(:keepFamily AS UUID))`,
        { replacements: { userId, keepFamily }, transaction: t }
      )
      return rowCount(upd)
    }
  }
}
