import { expect } from 'chai'
import { readdirSync, readFileSync } from 'node:fs'
import { basename, join } from 'node:path'

/**
 * Keeps each capability's SQL in its queries files (docs/conventions.md): a statement run or written
 * anywhere else in server/services is found here, so the typed camelCase rows stay the only way the
 * rest of a capability sees the database.
 */
const ROOT = join(import.meta.dirname, '..', '..')
const SERVICES = 'server/services'

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return sources(path)
    return e.name.endsWith('.ts') ? [path] : []
  })
}

/**
 * Running a statement (Sequelize's or pg's `.query`, the named-statement runner, a COPY stream), or
 * the text of one: a string that opens with a statement's first words.
 */
const SQL = /\.query\s*(<[^>]*>)?\s*\(|\bpreparedFor\s*\(|\bpgCopy\.to\s*\(|[`'"]\s*(SELECT|INSERT INTO|UPDATE \w+( \w+)? SET|DELETE FROM|WITH \w+ AS|COPY \()/

/** Statements left outside a queries file on purpose, each with its reason. Match on file and a piece of the line. */
const LEFT_ON_PURPOSE: { file: string; has: string; why: string }[] = [
  {
    file: 'server/services/ussd/index.ts',
    has: 'preparedFor(sequelize)',
    why: "verifyPin's two statements stay in verifyPin: mutation testing names its lines (scripts/mutants.ts)"
  },
  { file: 'server/services/ussd/index.ts', has: '`WITH next AS (', why: "verifyPin's failure count (see above)" },
  { file: 'server/services/ussd/index.ts', has: 'UPDATE agents SET pin_failed_attempts = 0', why: "verifyPin's reset (see above)" },
  {
    file: 'server/services/orders/exports.ts',
    has: 'client.query(pgCopy.to(sql))',
    why: "the CSV export streams its COPY on the transaction's own connection: the statement is queries-export.ts's, the streaming is the export's own work"
  }
]

const isQueriesFile = (file: string) => basename(file).startsWith('queries')

/** Lines outside queries files that run or spell out a statement and are not left there on purpose. */
function statementsOutsideQueries(files: { file: string; text: string }[]): string[] {
  return files
    .filter((f) => !isQueriesFile(f.file))
    .flatMap((f) => f.text.split('\n').map((text, i) => ({ file: f.file, line: i + 1, text })))
    .filter((l) => SQL.test(l.text) && !LEFT_ON_PURPOSE.some((a) => a.file === l.file && l.text.includes(a.has)))
    .map((l) => `${l.file}:${l.line}: ${l.text.trim()}`)
}

const tree = () => sources(SERVICES).map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }))

describe("each capability's SQL in its queries files", () => {
  it('runs and writes statements in server/services only in files named queries*.ts (or left on purpose, with the reason)', () => {
    expect(
      statementsOutsideQueries(tree()),
      "move the statement into the capability's queries.ts (a createXQueries function returning typed camelCase rows), or allow-list it with its reason"
    ).to.deep.equal([])
  })

  it('allows each statement left on purpose only where it still is', () => {
    const files = tree()
    const stale = LEFT_ON_PURPOSE.filter((a) => !files.some((f) => f.file === a.file && f.text.includes(a.has)))
    expect(stale, 'drop these from LEFT_ON_PURPOSE: the statement has moved').to.deep.equal([])
  })

  it('finds a statement run outside a queries file, in any of the forms the services use', () => {
    const runs = [
      "await sequelize.query('SELECT 1 FROM wallets', { type: QueryTypes.SELECT })",
      'const rows = await sequelize.query<{ n: number }>(sql)',
      'await pool.query(`UPDATE graphile_worker._private_jobs j SET locked_by = NULL`)',
      'const run = preparedFor(sequelize)',
      'const TAKE = `INSERT INTO orders (id) VALUES ($1)`',
      "q('DELETE FROM orders WHERE id = :id')",
      '`WITH picked AS (SELECT 1)`'
    ]
    const found = (file: string, texts: string[]) => statementsOutsideQueries(texts.map((text) => ({ file, text }))).length
    expect(found('server/services/wallet/pay.ts', runs)).to.equal(runs.length)
    // The same in a queries file, and words of SQL in prose or in names, are fine.
    expect(found('server/services/wallet/queries.ts', runs) + found('server/services/wallet/queries-pay.ts', runs)).to.equal(0)
    expect(found('server/services/payments/settle.ts', ["// the conditional UPDATE ... WHERE status IN ('PENDING')", "action: 'WEBHOOK_UPDATED'"])).to.equal(0)
  })
})
