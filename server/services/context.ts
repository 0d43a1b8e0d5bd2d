import type { Transaction } from 'sequelize'
import type { Logger } from '../lib/logger.ts'

export type Role = 'PUBLIC' | 'AGENT' | 'ADMIN'

/** The signed-in person as services see them: no req/res, just facts. */
export interface Actor {
  id: number
  email: string
  role: Role
  name: string | null
  phone: string | null
  agent: { id: number; name: string; phone: string; approved: boolean; paymentStatus: string | null } | null
  /** Bumped whenever the user's sessions are ended; a cookie session signed in under an older one is refused. */
  sessionEpoch?: number
}

/**
 * The browser a request came from, as far as payments care: the payments it started are
 * remembered in its own signed cookie (or a session from before it), so a transaction id alone never opens someone else's payment.
 */
export interface Browser {
  owns(transactionId: string): boolean
  remember(transactionId: string): void
  /** Newest first. */
  started(): string[]
}

export interface Ctx {
  user?: Actor | null
  ip?: string | null
  log?: Logger
  transaction?: Transaction
  /** The cookie session or bearer token family the request came in on (so "end the other sessions" can spare it). */
  sessionId?: string | null
  tokenFamily?: string | null
  browser?: Browser
}
