import crypto from 'node:crypto'
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { ACTIVE_AGENT_SQL } from '../../lib/vocabulary.ts'

/** The tier an agent is in, with the first tier standing in for an agent never placed in one. */
export const TIER_OF_AGENT = `COALESCE(a.tier_id, (SELECT id FROM tiers ORDER BY position LIMIT 1))`

/**
 * Who may invite (ADR 0041): an active agent that is nobody's sub-agent (one level only), in a tier
 * that allows inviting. The same condition decides the link shown and the link used.
 */
export const MAY_INVITE = `${ACTIVE_AGENT_SQL} AND a.parent_agent_id IS NULL
  AND EXISTS (SELECT 1 FROM tiers t WHERE t.id = ${TIER_OF_AGENT} AND t.may_invite)`

/** The agent whose invite code this is, while it may still invite; null otherwise. */
export async function inviterOf(sequelize: Sequelize, code: string, t?: Transaction): Promise<{ id: number } | null> {
  const [row] = await sequelize.query<{ id: number }>(`SELECT a.id FROM agents a WHERE a.invite_code = :code AND ${MAY_INVITE}`, {
    replacements: { code: code.trim() },
    type: QueryTypes.SELECT,
    transaction: t
  })
  return row ?? null
}

/** 10 characters of an alphabet without look-alikes (0/O, 1/l): typed by hand from a screenshot now and then. */
export function newInviteCode(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789'
  return Array.from(crypto.randomBytes(10), (b) => alphabet[b % alphabet.length]).join('')
}
