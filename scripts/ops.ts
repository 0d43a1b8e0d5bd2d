// Operator commands, run through npm (which loads .env): see docs/operations.md.
//   npm run db:where                       where the database is
//   npm run db:migrate                     apply pending migrations
//   npm run db:backup [-- FILE]            write a backup (default DATA_DIR/backups/datahub-<time>.json.gz)
//   npm run db:restore -- FILE --yes       replace every row with the backup's
//   npm run admin:create -- EMAIL          a new admin (password: DATAHUB_PASSWORD, or generated and shown once)
//   npm run admin:reset-password -- EMAIL  a new password for a user; signs them out everywhere
//   npm run payments:reconcile -- DAY [TO]  reconcile a UTC day (or DAY..TO) with the payment gateway now
// Against the embedded database, a cluster the running shop serves is used as it is.
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { backupTo, restoreFrom } from '../models/backup.ts'
import { databaseLocation, openDatabase, type Database } from '../models/db.ts'
import { migrate } from '../models/migrate.ts'
import { loadEnv, type Env } from '../server/env.ts'
import { hashSecret } from '../server/lib/crypto.ts'
import { createLogger } from '../server/lib/logger.ts'
import { createServices } from '../server/services/index.ts'

const [command, ...args] = process.argv.slice(2)
const positional = args.filter((a) => !a.startsWith('--'))
let env: Env
try {
  env = loadEnv(process.env, {}, { server: false })
} catch (err) {
  console.error((err as Error).message)
  process.exit(1)
}
// An operator command is quiet unless LOG_LEVEL asks for more.
const log = createLogger(process.env.LOG_LEVEL ? env.LOG_LEVEL : 'warn')

function fail(message: string): never {
  console.error(message)
  process.exit(1)
}

async function withDb<T>(env: Env, fn: (db: Database) => Promise<T>): Promise<T> {
  const db = await openDatabase(env, log, { attach: true })
  try {
    await migrate(db.sequelize, log)
    return await fn(db)
  } finally {
    await db.close()
  }
}

const password = () => env.DATAHUB_PASSWORD || crypto.randomBytes(12).toString('base64url')
const email = () => {
  const e = positional[0]?.trim().toLowerCase()
  if (!e || !/^[^@\s]+@[^@\s]+$/.test(e)) fail(`Usage: npm run ${command} -- EMAIL (the password comes from DATAHUB_PASSWORD, or is generated and shown once)`)
  return e
}

async function run(env: Env) {
  switch (command) {
    case 'where':
      console.log(databaseLocation(env))
      return
    case 'migrate':
      return withDb(env, async () => console.log('Migrations are up to date.'))
    case 'backup': {
      const file = path.resolve(positional[0] ?? path.join(env.DATA_DIR, 'backups', `datahub-${new Date().toISOString().replace(/[:.]/g, '-')}.json.gz`))
      fs.mkdirSync(path.dirname(file), { recursive: true })
      const from = databaseLocation(env)
      const r = await withDb(env, (db) => backupTo(db.sequelize, file))
      console.log(`Backup written: ${file} (${r.tables} tables, ${r.rows} rows) from the ${from}`)
      return
    }
    case 'restore': {
      const file = positional[0]
      if (!file || !fs.existsSync(file)) fail('Usage: npm run db:restore -- FILE --yes (FILE: a backup from npm run db:backup)')
      if (!args.includes('--yes')) fail(`This replaces every row of the ${databaseLocation(env)} with ${file}. Stop the shop first, then run again with --yes.`)
      const r = await withDb(env, (db) => restoreFrom(db.sequelize, path.resolve(file)))
      console.log(`Restored ${r.rows} rows in ${r.tables} tables from ${file}.`)
      return
    }
    case 'admin:create': {
      const e = email()
      const pw = password()
      if (pw.length < 8) fail('The password must be at least 8 characters.')
      await withDb(env, async (db) => {
        const services = createServices({ sequelize: db.sequelize, models: db.models, env, log })
        if (await db.models.User.findOne({ where: { email: e } })) fail(`A user with the email ${e} already exists (use admin:reset-password).`)
        await services.auth.createUser({ email: e, password: pw, role: 'ADMIN', name: 'Administrator' })
      })
      console.log(`Admin created: ${e}${env.DATAHUB_PASSWORD ? '' : `\nPassword: ${pw}\n(shown once; change it after signing in)`}`)
      return
    }
    case 'admin:reset-password': {
      const e = email()
      const pw = password()
      if (pw.length < 8) fail('The password must be at least 8 characters.')
      await withDb(env, async (db) => {
        const user = await db.models.User.unscoped().findOne({ where: { email: e } })
        if (!user) fail(`No user with the email ${e}.`)
        const id = user.get('id') as number
        await db.sequelize.transaction(async (transaction) => {
          await user.update({ passwordHash: await hashSecret(pw) }, { transaction })
          // Signed out everywhere: API tokens revoked, browser sessions removed.
          await db.models.AuthToken.update({ revokedAt: new Date() }, { where: { userId: id, revokedAt: null }, transaction })
          await db.sequelize.query("DELETE FROM session WHERE (sess->>'userId')::int = :id", { replacements: { id }, transaction })
          const services = createServices({ sequelize: db.sequelize, models: db.models, env, log })
          await services.audit.record(
            { action: 'PASSWORD_CHANGED', resource: 'USER', resourceId: id, severity: 'MEDIUM', details: { by: 'operator command' } },
            { transaction }
          )
        })
      })
      console.log(`Password reset for ${e}${env.DATAHUB_PASSWORD ? '' : `\nNew password: ${pw}\n(shown once)`}`)
      return
    }
    case 'payments:reconcile': {
      if (!positional[0]) fail('Usage: npm run payments:reconcile -- DAY [TO] (UTC days, YYYY-MM-DD; at most 31)')
      const runs = await withDb(env, (db) => {
        const services = createServices({ sequelize: db.sequelize, models: db.models, env, log })
        return services.payments.reconcileNow({ from: positional[0], to: positional[1] }, {}, 'operator command')
      })
      for (const r of runs)
        console.log(`Reconciled ${r.day}: ${r.gatewayCount} at the gateway, ${r.localCount} here, ${r.mismatches} mismatch${r.mismatches === 1 ? '' : 'es'}`)
      const found = runs.reduce((n, r) => n + r.mismatches, 0)
      console.log(found ? `${found} to look at on the admin page "Payments needing attention".` : 'Nothing to look at.')
      return
    }
    default:
      fail('Commands: where, migrate, backup [FILE], restore FILE --yes, admin:create EMAIL, admin:reset-password EMAIL, payments:reconcile DAY [TO]')
  }
}

run(env).then(
  () => process.exit(0),
  (err) => fail(`${command} failed: ${(err as Error).message}`)
)
