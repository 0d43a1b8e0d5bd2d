import { expect } from 'chai'
import http from 'node:http'
import { QueryTypes } from 'sequelize'
import { parseCsv } from '../../server/lib/csv.ts'
import { createAgent, createOrder } from '../helpers/factories.ts'
import { deliveredOrders } from '../helpers/export-orders.ts'
import { adminClient, type Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

// ADR 0023: one COPY statement picks, streams (CSV made by PostgreSQL) and marks the export; the
// route compresses the download itself. Still one transaction: all rows marked and sent, or none.
const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })
const marked = async () => (await q<{ n: number }>('SELECT count(*)::int AS n FROM order_exports'))[0]!.n
const exportAudits = async () => (await q<{ n: number }>("SELECT count(*)::int AS n FROM audit_logs WHERE action = 'ORDERS_EXPORTED'"))[0]!.n

/**
 * n paid orders in one statement, past the revenue roll-up triggers (one row updated n times in one
 * transaction: slow) which an export does not read; past the export candidates' trigger too, so they
 * are named as candidates here (ADR 0050).
 */
async function bulkPaid(n: number) {
  await app().db.sequelize.transaction(async (t) => {
    await app().db.sequelize.query('SET LOCAL session_replication_role = replica', { transaction: t })
    await app().db.sequelize.query(
      `WITH made AS (
         INSERT INTO orders (recipient_number, network, data_size_mb, amount_pesewas, payment_status, payment_transaction_id, created_at)
         SELECT '024' || lpad(g::text, 7, '0'), 'MTN', 1024, 500, 'SUCCESS', 'bulk' || g, now() - g * interval '1 second' FROM generate_series(1, :n) g
         RETURNING id)
       INSERT INTO order_export_candidates (order_id) SELECT id FROM made`,
      { replacements: { n }, transaction: t }
    )
  })
}

/** The export over a raw connection that reads nothing, so the server ends up waiting on it. */
function stalledExport(admin: Client) {
  const url = new URL('/api/orders/export', app().url)
  const req = http.request(url, {
    method: 'POST',
    headers: {
      Cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-csrf-token': admin.csrf!,
      'Accept-Encoding': 'identity',
      'Content-Length': 0
    }
  })
  const response = new Promise<http.IncomingMessage>((resolve, reject) => {
    req.on('response', (res) => {
      res.pause()
      resolve(res)
    })
    req.on('error', reject)
  })
  req.end()
  return { req, response }
}

async function until(what: string, check: () => Promise<boolean>, ms = 30_000) {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe('order export in one statement (ADR 0023)', () => {
  let admin: Client
  beforeEach(async () => {
    await resetDb()
    admin = await adminClient()
  })

  it("PostgreSQL's CSV keeps csv.ts's rules: CRLF row ends, line breaks and quotes inside fields, formula guard, phones as text, empty fields", async () => {
    const formula = await createAgent({ name: '=HYPERLINK("http://x","y")', phone: '0241110001' })
    const twoLines = await createAgent({ name: 'Ama\nMensah, "Ltd"', phone: '0241110002' })
    const a = await createOrder({
      paymentStatus: 'SUCCESS',
      agentId: formula.agent.id,
      userId: formula.user.id,
      recipientNumber: '0201234567',
      paymentPhoneNumber: ''
    })
    const b = await createOrder({ paymentStatus: 'SUCCESS', agentId: twoLines.agent.id, userId: twoLines.user.id, dataSizeMb: 500, amountPesewas: 5 })
    const c = await createOrder({ paymentStatus: 'SUCCESS' })
    await q('UPDATE orders SET simulated = true WHERE id = :id', { id: c.id })
    const res = await admin.post('/api/orders/export')
    expect(res.status, res.text).to.equal(200)
    expect(res.text.startsWith('Order ID,Recipient Number,')).to.equal(true) // (fetch's text() drops the BOM)
    // Every row ends CRLF; the line break typed into a name stays a bare LF inside its quotes.
    expect(res.text.split('\r\n')).to.have.length(5) // header, 3 rows, '' after the last CRLF
    expect(res.text).to.include('"Ama\nMensah, ""Ltd"""')
    const [, ...rows] = parseCsv(res.text)
    expect(rows.map((r) => Number(r[0]))).to.deep.equal([a.id, b.id, c.id]) // oldest first
    const [ra, rb, rc] = rows as [string[], string[], string[]]
    expect(ra.slice(1, 3)).to.deep.equal(['\t0201234567', 'MTN'])
    expect(ra[7]).to.equal('\t=HYPERLINK("http://x","y")') // formula neutralised
    expect(ra[8]).to.equal('\t0241110001')
    expect(ra[11]).to.equal('') // an empty payment phone is an empty field, like a missing one
    expect(rb.slice(3, 8)).to.deep.equal(['500MB', '500', '0.05', 'Agent', 'Ama\nMensah, "Ltd"'])
    expect(rc.slice(6, 9)).to.deep.equal(['Direct Customer', '', ''])
    expect(rc[14]).to.equal('YES - do not deliver')
    expect(ra[13]).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
    expect(new Set(rows.map((r) => r[13])).size).to.equal(1) // one export, one time
    expect(res.text).to.not.match(/(^|,)""(,|\r)/m) // no empty quoted fields
  })

  it("writes Created At as UTC 'YYYY-MM-DD HH:MM:SS' whatever the server's DateStyle", async () => {
    const order = await createOrder({ paymentStatus: 'SUCCESS' })
    await q("UPDATE orders SET created_at = '2026-03-04 05:06:07.891+00' WHERE id = :id", { id: order.id })
    // A server that prints dates its own way (and reads day before month): the file must not follow it.
    await app().db.sequelize.query("ALTER SYSTEM SET datestyle = 'SQL, DMY'")
    await app().db.sequelize.query('SELECT pg_reload_conf()')
    const pieces: Buffer[] = []
    try {
      await until('the server prints dates its own way', async () => (await q<{ d: string }>("SELECT current_setting('datestyle') AS d"))[0]!.d === 'SQL, DMY')
      await app().services.ordersAdmin.exportPending({ start: () => {}, write: async (chunk) => void pieces.push(chunk) })
    } finally {
      await app().db.sequelize.query('ALTER SYSTEM RESET datestyle')
      await app().db.sequelize.query('SELECT pg_reload_conf()')
    }
    const [, row] = parseCsv(
      Buffer.concat(pieces)
        .toString()
        .replace(/^\uFEFF/, '')
    )
    expect(row![0]).to.equal(String(order.id))
    expect(row![12]).to.equal('2026-03-04 05:06:07')
    expect(row![13]).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
  })

  it('hands the file to its sink in pieces of 64 KB (the last one excepted), BOM and header first, every row once', async () => {
    await bulkPaid(3000)
    const pieces: Buffer[] = []
    let started = 0
    const rows = await app().services.ordersAdmin.exportPending({
      start: () => void started++,
      write: async (chunk) => void pieces.push(chunk)
    })
    expect(rows).to.equal(3000)
    expect(started).to.equal(1)
    expect(pieces.length).to.be.greaterThan(2)
    // PostgreSQL's own pieces are a few KB: gathered, each encoder write is a large one.
    expect(pieces.slice(0, -1).every((p) => p.length >= 64 * 1024)).to.equal(true)
    const file = Buffer.concat(pieces).toString()
    expect(file.startsWith('\uFEFFOrder ID,Recipient Number,')).to.equal(true)
    expect(file.split('\r\n')).to.have.length(3002) // header, 3,000 rows, '' after the last CRLF
    expect(await marked()).to.equal(3000)
  })

  it('compresses the download itself (brotli, else gzip, else none), marked no-transform, and decodes to the same file', async () => {
    await bulkPaid(300)
    const texts: string[] = []
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['identity', null]
    ] as const) {
      // The export undone: its orders are candidates again (ADR 0050).
      await q(
        'WITH back AS (DELETE FROM order_exports RETURNING order_id) INSERT INTO order_export_candidates SELECT order_id FROM back ON CONFLICT DO NOTHING'
      )
      const res = await admin.post('/api/orders/export', undefined, { 'Accept-Encoding': accept })
      expect(res.status, accept).to.equal(200)
      expect(res.headers.get('content-encoding'), accept).to.equal(encoding)
      expect(res.headers.get('cache-control')).to.equal('no-store, no-transform')
      expect(res.headers.get('vary')).to.match(/Accept-Encoding/i)
      texts.push(res.text.replace(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,(no|YES)/g, '$1'))
    }
    expect(parseCsv(texts[0]!)).to.have.length(301)
    expect(texts[1]).to.equal(texts[0])
    expect(texts[2]).to.equal(texts[0])
  })

  it('rows already sent and the marking fails at the end of the statement: the download breaks and nothing is marked', async () => {
    await bulkPaid(3000)
    const [{ id: last }] = await q<{ id: number }>('SELECT max(id) AS id FROM orders')
    // The marking (the INSERT into order_exports) runs once the rows have gone out: make it fail there.
    await app().db.sequelize.query(`CREATE FUNCTION test_refuse_export() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.order_id = ${Number(last)} THEN RAISE EXCEPTION 'disk full'; END IF; RETURN NEW; END $$`)
    await app().db.sequelize.query('CREATE TRIGGER test_refuse_export BEFORE INSERT ON order_exports FOR EACH ROW EXECUTE FUNCTION test_refuse_export()')
    try {
      let failure: Error | undefined
      await admin.post('/api/orders/export').catch((err: Error) => (failure = err))
      expect(failure, 'a download that ends normally').to.be.instanceOf(Error)
      expect(await marked()).to.equal(0)
      expect(await exportAudits()).to.equal(0)
    } finally {
      await app().db.sequelize.query('DROP TRIGGER test_refuse_export ON order_exports; DROP FUNCTION test_refuse_export()')
    }
    const res = await admin.post('/api/orders/export')
    expect(parseCsv(res.text)).to.have.length(3001)
    expect(await marked()).to.equal(3000)
  })

  it("a short export holds its picked rows in memory, however small the server's work_mem: no temporary file", async () => {
    // 1,000 candidates among 9,000 delivered orders (under 1/8: looked up by key), and a server at the
    // smallest work_mem (64 kB), which ~130 kB of picked rows would overflow into a temporary file.
    await deliveredOrders(8000)
    await bulkPaid(1000)
    await q('ANALYZE orders')
    const stats = async () =>
      (
        await q<{ files: number; inserted: number }>(
          'SELECT temp_files::int AS files, tup_inserted::int AS inserted FROM pg_stat_database WHERE datname = current_database()'
        )
      )[0]!
    await app().db.sequelize.query("ALTER SYSTEM SET work_mem = '64kB'")
    await app().db.sequelize.query('SELECT pg_reload_conf()')
    try {
      const before = await stats()
      const res = await admin.post('/api/orders/export', undefined, { 'Accept-Encoding': 'identity' })
      expect(parseCsv(res.text)).to.have.length(1001)
      // A connection reports its figures once idle: its 1,000 order_exports rows show they are in.
      await until('the export is counted', async () => (await stats()).inserted >= before.inserted + 1000)
      expect((await stats()).files - before.files).to.equal(0)
    } finally {
      await app().db.sequelize.query('ALTER SYSTEM RESET work_mem')
      await app().db.sequelize.query('SELECT pg_reload_conf()')
    }
  })

  it('the browser goes away mid-download: rolled back, lock and connection released, the next export takes every order', async function () {
    this.timeout(120_000) // 100,000 rows: enough CSV to fill every buffer between PostgreSQL and a client that reads nothing
    await bulkPaid(100_000)
    const { req, response } = stalledExport(admin)
    const res = await response
    expect(res.statusCode).to.equal(200)
    // PostgreSQL is waiting for the server to take more rows: the export is mid-statement, not committed.
    await until(
      'the COPY waits on its client',
      async () =>
        (await q<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'COPY (%' AND wait_event = 'ClientWrite'"))[0]!.n === 1
    )
    req.destroy()
    await until(
      'the export has rolled back',
      async () => (await q<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'COPY (%' AND state = 'active'"))[0]!.n === 0
    )
    expect(await marked()).to.equal(0)
    expect(await exportAudits()).to.equal(0)
    const again = await admin.post('/api/orders/export')
    expect(again.status).to.equal(200)
    expect(parseCsv(again.text)).to.have.length(100_001)
    expect(await marked()).to.equal(100_000)
    expect(await exportAudits()).to.equal(1)
  })
})
