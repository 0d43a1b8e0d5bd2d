// A logical backup of every table of the public schema, and its restore, done over the ordinary
// connection. Why not pg_dump: the embedded server is PostgreSQL 18 and its package ships only
// initdb/pg_ctl/postgres; the system's pg_dump (15 here) refuses a newer server. See decision 0017.
//
// The file: gzip of JSON lines. First {"format":"datahub-backup","version":1,...}, then per table
// {"table","columns"} and batches {"rows":[...]} of row_to_json, read in one repeatable-read snapshot.
import fs from 'node:fs'
import readline from 'node:readline'
import { pipeline } from 'node:stream/promises'
import { Readable } from 'node:stream'
import zlib from 'node:zlib'
import { QueryTypes, Transaction, type Sequelize } from 'sequelize'

const FORMAT = 'datahub-backup'
const BATCH = 1000

async function tables(sequelize: Sequelize, t: Transaction): Promise<string[]> {
  const rows = await sequelize.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename", {
    type: QueryTypes.SELECT,
    transaction: t
  })
  return rows.map((r) => r.name)
}

async function columns(sequelize: Sequelize, table: string, t: Transaction): Promise<string[]> {
  const rows = await sequelize.query<{ name: string }>(
    `SELECT column_name AS name FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name = :table AND is_generated = 'NEVER' ORDER BY ordinal_position`,
    { replacements: { table }, type: QueryTypes.SELECT, transaction: t }
  )
  return rows.map((r) => r.name)
}

const q = (name: string) => `"${name.replace(/"/g, '""')}"`

export async function backupTo(sequelize: Sequelize, file: string): Promise<{ tables: number; rows: number }> {
  let total = 0
  let count = 0
  async function* lines() {
    const t = await sequelize.transaction({ isolationLevel: Transaction.ISOLATION_LEVELS.REPEATABLE_READ })
    try {
      await sequelize.query('SET TRANSACTION READ ONLY', { transaction: t }).catch(() => {})
      const [v] = await sequelize.query<{ v: string }>('SHOW server_version', { type: QueryTypes.SELECT, transaction: t })
      yield JSON.stringify({ format: FORMAT, version: 1, createdAt: new Date().toISOString(), serverVersion: v!.v }) + '\n'
      for (const table of await tables(sequelize, t)) {
        count++
        const cols = await columns(sequelize, table, t)
        yield JSON.stringify({ table, columns: cols }) + '\n'
        const cursor = `backup_${count}`
        await sequelize.query(
          `DECLARE ${cursor} NO SCROLL CURSOR FOR SELECT row_to_json(x)::text AS j FROM (SELECT ${cols.map(q).join(', ')} FROM ${q(table)}) x`,
          { transaction: t }
        )
        while (true) {
          const rows = await sequelize.query<{ j: string }>(`FETCH ${BATCH} FROM ${cursor}`, { type: QueryTypes.SELECT, transaction: t })
          if (rows.length === 0) break
          total += rows.length
          yield `{"rows":[${rows.map((r) => r.j).join(',')}]}\n`
        }
        await sequelize.query(`CLOSE ${cursor}`, { transaction: t })
      }
      yield JSON.stringify({ end: true, tables: count, total }) + '\n'
      await t.commit()
    } catch (err) {
      await t.rollback().catch(() => {})
      throw err
    }
  }
  const tmp = `${file}.partial`
  await pipeline(Readable.from(lines()), zlib.createGzip(), fs.createWriteStream(tmp, { mode: 0o600 }))
  fs.renameSync(tmp, file) // a backup cut short never looks complete
  return { tables: count, rows: total }
}

/**
 * Replaces every row of the database with the backup's, in one transaction: all of it or nothing.
 * The schema must already be migrated (the caller runs migrations first); sequences are moved past
 * the restored ids.
 */
export async function restoreFrom(sequelize: Sequelize, file: string): Promise<{ tables: number; rows: number }> {
  let rows = 0
  let count = 0
  let ended = false
  let skipped = 0
  await sequelize.transaction(async (t) => {
    const [su] = await sequelize.query<{ s: boolean }>('SELECT rolsuper AS s FROM pg_roles WHERE rolname = current_user', {
      type: QueryTypes.SELECT,
      transaction: t
    })
    // Foreign keys are checked by triggers: a superuser loads the tables in any order with them off.
    if (su?.s) await sequelize.query('SET LOCAL session_replication_role = replica', { transaction: t })
    else await sequelize.query('SET CONSTRAINTS ALL DEFERRED', { transaction: t })
    const present = await tables(sequelize, t)
    // The schema is this version's (migrated by the caller): its own migration list stays.
    const data = present.filter((n) => n !== 'schema_migrations')
    const migrated = new Set(
      (await sequelize.query<{ name: string }>('SELECT name FROM schema_migrations', { type: QueryTypes.SELECT, transaction: t })).map((r) => r.name)
    )
    await sequelize.query(`TRUNCATE ${data.map(q).join(', ')} RESTART IDENTITY CASCADE`, { transaction: t })
    let first = true
    let table = ''
    let cols: string[] = []
    // Opened here, right before reading: lines read out before the loop starts would be lost.
    const input = readline.createInterface({ input: fs.createReadStream(file).pipe(zlib.createGunzip()), crlfDelay: Infinity })
    for await (const line of input) {
      if (!line) continue
      const rec = JSON.parse(line)
      if (first) {
        if (rec.format !== FORMAT) throw new Error(`${file} is not a Data Hub backup`)
        first = false
      } else if (rec.table) {
        if (!present.includes(rec.table))
          throw new Error(`The backup has a table "${rec.table}" this version does not know; restore with the version that made it.`)
        table = rec.table
        const here = await columns(sequelize, table, t)
        cols = (rec.columns as string[]).filter((c) => here.includes(c))
        count++
      } else if (rec.end) {
        ended = true
        if (rec.total !== rows + skipped) throw new Error(`The backup is damaged: ${rows + skipped} rows read, ${rec.total} written`)
      } else if (Array.isArray(rec.rows) && table === 'schema_migrations') {
        skipped += rec.rows.length
        const newer = (rec.rows as { name: string }[]).filter((r) => !migrated.has(r.name)).map((r) => r.name)
        if (newer.length) throw new Error(`The backup was made by a newer version (migrations ${newer.join(', ')}); restore it with that version.`)
      } else if (Array.isArray(rec.rows)) {
        await sequelize.query(
          `INSERT INTO ${q(table)} (${cols.map(q).join(', ')}) OVERRIDING SYSTEM VALUE
           SELECT ${cols.map(q).join(', ')} FROM json_populate_recordset(NULL::${q(table)}, $1::json)`,
          { bind: [JSON.stringify(rec.rows)], transaction: t }
        )
        rows += rec.rows.length
      }
    }
    if (!ended) throw new Error(`${file} is incomplete (no end record); nothing was restored`)
    const seqs = await sequelize.query<{ tbl: string; col: string; seq: string }>(
      `SELECT c.table_name AS tbl, c.column_name AS col, pg_get_serial_sequence(quote_ident(c.table_name), c.column_name) AS seq
         FROM information_schema.columns c WHERE c.table_schema = 'public'
          AND pg_get_serial_sequence(quote_ident(c.table_name), c.column_name) IS NOT NULL`,
      { type: QueryTypes.SELECT, transaction: t }
    )
    for (const s of seqs) {
      await sequelize.query(`SELECT setval('${s.seq}', COALESCE((SELECT max(${q(s.col)}) FROM ${q(s.tbl)}), 0) + 1, false)`, { transaction: t })
    }
  })
  return { tables: count, rows }
}
