import { QueryTypes, type Transaction } from 'sequelize'
import { app } from './server.ts'

/** Runs `fn` in a transaction that is always rolled back: plans under `SET LOCAL`, a migration's `down` tried in place. */
export async function rolledBack<T>(fn: (t: Transaction) => Promise<T>): Promise<T> {
  const t = await app().db.sequelize.transaction()
  try {
    return await fn(t)
  } finally {
    await t.rollback()
  }
}

type Down = (arg: { context: (text: string) => Promise<unknown> }) => Promise<unknown>

/** The definitions of the named indexes after a migration's `down`, by name, without the schema; nothing is kept. */
export const indexesAfterDown = (down: Down, names: string[]): Promise<string[]> =>
  rolledBack(async (transaction) => {
    const db = app().db.sequelize
    await down({ context: (text) => db.query(text, { transaction }) })
    const defs = await db.query<{ def: string }>('SELECT indexdef AS def FROM pg_indexes WHERE indexname IN (:names) ORDER BY indexname', {
      replacements: { names },
      transaction,
      type: QueryTypes.SELECT
    })
    return defs.map((d) => d.def.replace(/public\./g, ''))
  })
