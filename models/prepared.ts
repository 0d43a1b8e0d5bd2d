import { createHash } from 'node:crypto'
import { UniqueConstraintError, type Sequelize, type Transaction } from 'sequelize'
import { send, type PgCallbackClient } from './pg-send.ts'

interface Pool {
  getConnection(o: { type: string }): Promise<PgCallbackClient>
  releaseConnection(c: PgCallbackClient): Promise<void> | void
}

/** Runs one statement with $1.. parameters as a named (prepared) statement: its text, or the text with its name (`named`). */
export type Prepared = <T = any>(statement: string | NamedStatement, values: unknown[], t?: Transaction | null) => Promise<T[]>

/** A statement's text with its name, worked out once. */
export interface NamedStatement {
  readonly name: string
  readonly text: string
}

const nameOfText = (text: string) => `p_${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`

/**
 * A statement whose text is built from parts (`build`), built and named once per shape: the same object for the same
 * parts (compared by identity). A text built anew for each call is a new string of several kB that the name's lookup
 * hashes and compares in full every time; a named statement is looked up by nothing.
 */
export function namedByShape<K extends unknown[]>(build: (...parts: K) => string): (...parts: K) => NamedStatement {
  const root = new Map<unknown, unknown>()
  return (...parts) => {
    let node = root
    for (let i = 0; i < parts.length - 1; i++) {
      let next = node.get(parts[i]) as Map<unknown, unknown> | undefined
      if (!next) node.set(parts[i], (next = new Map()))
      node = next
    }
    const last = parts[parts.length - 1]
    let statement = node.get(last) as NamedStatement | undefined
    if (!statement) {
      const text = build(...parts)
      node.set(last, (statement = { name: nameOfText(text), text }))
    }
    return statement
  }
}

/**
 * Statements on the paths every paid order, delivery and USSD hop takes (ADR 0024):
 * named statements straight on a pg connection of Sequelize's own pool — the transaction's connection
 * when given, so they are part of it. No Sequelize query object, replacement formatting or result
 * mapping, and PostgreSQL parses and plans each statement once per connection instead of every time
 * (planning was a third of PostgreSQL's time on an order's statements). The name is a hash of the
 * text, so the same text is one prepared statement per connection however many callers use it.
 * Rows come back as pg returns them, like `sequelize.query(..., { type: SELECT })`.
 */
export function createPrepared(sequelize: Sequelize): Prepared {
  const pool = sequelize.connectionManager as unknown as Pool
  const names = new Map<string, string>()
  const nameOf = (text: string) => {
    let name = names.get(text)
    if (!name) {
      name = nameOfText(text)
      names.set(text, name)
    }
    return name
  }
  return async function run<T>(statement: string | NamedStatement, values: unknown[], t?: Transaction | null): Promise<T[]> {
    const name = typeof statement === 'string' ? nameOf(statement) : statement.name
    const text = typeof statement === 'string' ? statement : statement.text
    const own = (t as unknown as { connection?: PgCallbackClient } | undefined)?.connection
    if (own) return (await send(own, { name, text, values })).rows as T[]
    const client = await pool.getConnection({ type: 'write' })
    try {
      return (await send(client, { name, text, values })).rows as T[]
    } finally {
      await pool.releaseConnection(client)
    }
  }
}

/**
 * A FROM item that turns off waiting for the WAL flush at this statement's commit (an autocommit
 * statement, or the transaction it runs in). Only for writes that may be lost to a crash of
 * PostgreSQL itself because they are redone anyway: a worker's claim (the job runs again), a text
 * marked SENT (the sweep sends it again). A later synchronous commit flushes them too (the WAL is
 * written in order), so only the last fraction of a second before such a crash can go (ADR 0024).
 */
export const NO_FLUSH_WAIT = `(SELECT set_config('synchronous_commit', 'off', true)) AS no_flush_wait`

const perDatabase = new WeakMap<Sequelize, Prepared>()

/** The one runner of a database (services share its statement names). */
export function preparedFor(sequelize: Sequelize): Prepared {
  let run = perDatabase.get(sequelize)
  if (!run) perDatabase.set(sequelize, (run = createPrepared(sequelize)))
  return run
}

/**
 * A unique violation, however it came: Sequelize's UniqueConstraintError, or pg's own error (code
 * 23505) from a named statement, which never passes through Sequelize's error mapping.
 */
export function isUniqueViolation(err: unknown): boolean {
  return err instanceof UniqueConstraintError || (err as { code?: unknown } | null)?.code === '23505'
}
