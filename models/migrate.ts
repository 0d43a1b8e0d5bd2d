import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Sequelize } from 'sequelize'
import { QueryTypes } from 'sequelize'
import type { Logger } from 'pino'

export type MigrationFn = (args: { context: (sql: string) => Promise<unknown> }) => Promise<void>

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations')
// Any fixed number shared by all instances: the lock that keeps two starts from migrating at once.
const MIGRATION_LOCK = 727001

/** Runs pending migrations in file-name order, in one transaction each, under an advisory lock. */
export async function migrate(sequelize: Sequelize, log?: Logger): Promise<string[]> {
  const files = fs
    .readdirSync(dir)
    .filter((f) => /^\d+_.+\.ts$/.test(f))
    .sort()
  return sequelize.transaction(async (t) => {
    await sequelize.query('SELECT pg_advisory_xact_lock(:k)', { replacements: { k: MIGRATION_LOCK }, transaction: t })
    await sequelize.query('CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, run_at TIMESTAMPTZ NOT NULL DEFAULT now())', { transaction: t })
    const done = new Set(
      (await sequelize.query<{ name: string }>('SELECT name FROM schema_migrations', { type: QueryTypes.SELECT, transaction: t })).map((r) => r.name)
    )
    const ran: string[] = []
    for (const file of files) {
      if (done.has(file)) continue
      const mod = (await import(path.join(dir, file))) as { up: MigrationFn }
      await mod.up({ context: (sql) => sequelize.query(sql, { transaction: t }) })
      await sequelize.query('INSERT INTO schema_migrations (name) VALUES (:name)', { replacements: { name: file }, transaction: t })
      ran.push(file)
      log?.debug({ migration: file }, 'migration applied')
    }
    // One line, not one per file: a fresh database applies them all.
    if (ran.length) log?.info({ migrations: ran.length, last: ran.at(-1) }, 'database schema migrated')
    return ran
  })
}
