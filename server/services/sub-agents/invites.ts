import crypto from 'node:crypto'
import type { Sequelize, Transaction } from 'sequelize'
import { createSubAgentQueries } from './queries.ts'

/** The agent whose invite code this is, while it may still invite; null otherwise. */
export async function inviterOf(sequelize: Sequelize, code: string, t?: Transaction): Promise<{ id: number } | null> {
  return createSubAgentQueries(sequelize).inviter(code.trim(), t)
}

/** 10 characters of an alphabet without look-alikes (0/O, 1/l): typed by hand from a screenshot now and then. */
export function newInviteCode(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789'
  return Array.from(crypto.randomBytes(10), (b) => alphabet[b % alphabet.length]).join('')
}
