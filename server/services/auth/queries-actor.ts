import type { Sequelize } from 'sequelize'
import { preparedFor } from '../../../models/prepared.ts'
import type { Role } from '../context.ts'

// The signed-in actor's one read: the user with its agent profile, if any.

/** A user as a request acts: its role, its session epoch and its agent's standing. */
export interface ActorRow {
  id: number
  email: string
  role: Role
  name: string | null
  phone: string | null
  sessionEpoch: number
  agent: { id: number; name: string; phone: string; approved: boolean; paymentStatus: string | null } | null
}

/**
 * The actor's columns over `ACTOR_FROM`: this file's one read, and a statement that reads the actor beside
 * something else it needs at the same moment (the reseller API's key), mapped back by `toActorRow`.
 */
export const ACTOR_COLUMNS = `u.id, u.email, u.role, u.name, u.phone, u.session_epoch,
                a.id AS agent_id, a.name AS agent_name, a.phone AS agent_phone, a.approved AS agent_approved, a.payment_status AS agent_payment_status`
export const ACTOR_FROM = 'users u LEFT JOIN agents a ON a.user_id = u.id'

/** A row read with ACTOR_COLUMNS as the actor's row; null when it names no user. */
export function toActorRow(u: Record<string, any> | undefined): ActorRow | null {
  if (!u || u.id === null || u.id === undefined) return null
  return {
    id: u.id,
    email: u.email,
    role: u.role as Role,
    name: u.name ?? null,
    phone: u.phone ?? null,
    sessionEpoch: Number(u.session_epoch ?? 0),
    agent:
      u.agent_id === null
        ? null
        : { id: u.agent_id, name: u.agent_name, phone: u.agent_phone, approved: !!u.agent_approved, paymentStatus: u.agent_payment_status ?? null }
  }
}

export function createActorQueries(sequelize: Sequelize) {
  // Every USSD order and bearer request reads the actor: a named statement (ADR 0024).
  const run = preparedFor(sequelize)
  return {
    async actor(userId: number): Promise<ActorRow | null> {
      const [u] = await run<Record<string, any>>(
        `SELECT ${ACTOR_COLUMNS}
           FROM ${ACTOR_FROM}
          WHERE u.id = $1`,
        [userId]
      )
      return toActorRow(u)
    }
  }
}
