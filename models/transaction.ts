import { Transaction, type Sequelize } from 'sequelize'
import { send, type PgCallbackClient } from './pg-send.ts'

interface PgConnection extends PgCallbackClient {
  uuid?: string
}

interface Pool {
  getConnection(o: { uuid: string }): Promise<PgConnection>
  releaseConnection(c: PgConnection): Promise<void> | void
  destroyConnection(c: PgConnection): Promise<void>
}

/** The parts of Sequelize's Transaction that its own `transaction()` sets and reads. */
interface Open {
  id: string
  connection: PgConnection
  finished?: 'commit' | 'rollback'
  _afterCommitHooks: ((t: Transaction) => unknown)[]
}

/**
 * `sequelize.transaction(fn)` with the same rules, its START TRANSACTION and its COMMIT (or ROLLBACK) sent straight on
 * the connection (ADR 0065): without Sequelize's query path (a query object, its formatting and its result handling)
 * for two statements that take no value and return no row. The same Transaction object, so every statement inside goes
 * as before. As Sequelize's: one connection from the pool for the transaction, returned once at its end; an error in
 * `fn` rolls back and is thrown again; a COMMIT or ROLLBACK that fails destroys the connection (its state is unknown)
 * instead of returning it; `afterCommit` hooks run after the COMMIT, as Sequelize runs them (even when it failed).
 * No CLS: the project does not use it.
 */
export async function transactionOn<T>(sequelize: Sequelize, fn: (t: Transaction) => Promise<T>): Promise<T> {
  const pool = sequelize.connectionManager as unknown as Pool
  const t = new Transaction(sequelize, {})
  const open = t as unknown as Open
  const connection = await pool.getConnection({ uuid: open.id })
  open.connection = connection
  connection.uuid = open.id
  const release = async (ended: boolean) => {
    connection.uuid = undefined
    if (ended) await pool.releaseConnection(connection)
    else await pool.destroyConnection(connection)
  }
  let result: T
  try {
    await send(connection, 'START TRANSACTION;')
    result = await fn(t)
  } catch (err) {
    open.finished = 'rollback'
    const rolledBack = await send(connection, 'ROLLBACK;').then(
      () => true,
      () => false
    )
    await release(rolledBack)
    throw err
  }
  try {
    await send(connection, 'COMMIT;')
    await release(true)
  } catch (err) {
    await release(false)
    throw err
  } finally {
    open.finished = 'commit'
    for (const hook of open._afterCommitHooks) await hook.call(t, t)
  }
  return result
}

/**
 * The Transaction of a statement that was its own transaction and has committed (an autocommitted statement): what
 * remains of its work is only what runs after a commit. `afterCommit` runs its hook at once, since the commit is
 * behind; any statement sent in it is refused (Sequelize's own refusal of a finished transaction, and a connection
 * that refuses every query), never run elsewhere, so nothing can be written as if it were part of the committed
 * statement (ADR 0079).
 */
export function committedAlready(sequelize: Sequelize): Transaction {
  const t = new CommittedAlready(sequelize, {})
  const open = t as unknown as Open
  open.connection = REFUSING
  open.finished = 'commit'
  return t
}

// Made once, and the hook run through the class rather than a function set on each transaction: a function kept on
// an object that holds that object kept each order's transaction alive through V8's scavenges (ADR 0092).
class CommittedAlready extends Transaction {
  override afterCommit(hook: (t: this) => void | Promise<void>): void {
    void hook(this)
  }
}

// pg's callback form (the last argument) is how every statement reaches a connection here.
const REFUSING: PgConnection = {
  query: (...args: unknown[]) => (args.at(-1) as (err: Error) => void)(new Error('a statement sent in a transaction that has committed already'))
}
