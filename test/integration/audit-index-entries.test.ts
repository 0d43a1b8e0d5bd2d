import { expect } from 'chai'
import { QueryTypes, type Transaction } from 'sequelize'
import { down } from '../../models/migrations/411_audit_index_entries.ts'
import { genericPlan } from '../helpers/generic-plan.ts'
import { indexRecords } from '../helpers/index-records.ts'
import { indexesAfterDown, rolledBack } from '../helpers/rolled-back.ts'
import { app, resetDb } from '../helpers/server.ts'
import { pendingSimulatorOrder } from '../helpers/simulator-order.ts'

// The audit log's index entries (ADR 0078): the system's own entries that come with every order (no user, no IP,
// LOW) write none in the user, IP and severity indexes, and the audit log page's filters still read an index on a
// large log.

const db = () => app().db.sequelize
const sql = <T extends object = any>(text: string, replacements: Record<string, unknown> = {}, transaction?: Transaction) =>
  db().query<T>(text, { replacements, type: QueryTypes.SELECT, transaction }) as Promise<T[]>

const PARTIAL = ['audit_ip_idx', 'audit_severity_idx', 'audit_user_idx']

/** The statements the audit log page sends for `filters`, as PostgreSQL receives them. */
async function pageStatements(filters: Record<string, unknown>): Promise<string[]> {
  const sent: string[] = []
  const options = (db() as unknown as { options: { logging?: unknown } }).options
  const was = options.logging
  options.logging = (text: string) => sent.push(text.replace(/^Executing \([^)]*\): /, ''))
  try {
    await app().services.auditLogs.list({ ...filters, page: 1, limit: 50 } as never)
  } finally {
    options.logging = was
  }
  expect(sent.length, sent.join('\n')).to.be.greaterThan(0)
  return sent.filter((s) => s.startsWith('SELECT'))
}

const planOf = async (text: string) => (await sql<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`)).map((r) => r['QUERY PLAN']).join('\n')

describe("the audit log's index entries", function () {
  this.timeout(60_000)
  beforeEach(resetDb)

  it("a settlement's entry (no user, no IP, LOW) writes none in the user, IP and severity indexes; an admin's does", async () => {
    const o = await pendingSimulatorOrder()
    await app().services.settings.get()
    const settled = await indexRecords(['audit_logs'], async () => {
      const approved = { status: 'SUCCESS' as const, message: 'Approved', amountPesewas: 450, currency: 'GHS' }
      expect((await app().services.payments.settle(o.tid, approved)).settled).to.equal(true)
    })
    expect(settled.audit_time_id_idx, JSON.stringify(settled)).to.be.greaterThan(0)
    for (const name of PARTIAL) expect(settled[name], JSON.stringify(settled)).to.equal(undefined)

    const [{ id: adminId }] = await sql<{ id: number }>("SELECT id FROM users WHERE role = 'ADMIN' LIMIT 1")
    const byAdmin = await indexRecords(['audit_logs'], () =>
      app().services.audit.record({ action: 'SETTINGS_UPDATED', resource: 'SETTINGS', severity: 'HIGH' }, { user: { id: adminId } as never, ip: '10.0.0.9' })
    )
    for (const name of PARTIAL) expect(byAdmin[name], JSON.stringify(byAdmin)).to.be.greaterThan(0)
  })

  it("the page's filters by user, IP and a rare severity read their index on a large log; LOW reads the time index", async () => {
    const [{ id: adminId }] = await sql<{ id: number }>("SELECT id FROM users WHERE role = 'ADMIN' LIMIT 1")
    // A log as the shop's: mostly the system's LOW entries, a few by a user from an IP, fewer HIGH.
    await db().query(
      `INSERT INTO audit_logs (timestamp, user_id, action, resource, resource_id, severity, ip_address, details)
       SELECT now() - make_interval(secs => g), CASE WHEN g % 500 = 0 THEN :adminId END, 'ORDER_DELIVERED', 'ORDER', g::text,
              CASE WHEN g % 2000 = 0 THEN 'HIGH' WHEN g % 100 = 0 THEN 'MEDIUM' ELSE 'LOW' END,
              CASE WHEN g % 500 = 0 THEN '10.0.0.' || (g % 7) END, '{}'
         FROM generate_series(1, 60000) g`,
      { replacements: { adminId } }
    )
    await db().query('ANALYZE audit_logs')
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ userId: adminId }, /audit_user_idx/],
      [{ ipAddress: '10.0.0.3' }, /audit_ip_idx/],
      [{ severity: 'HIGH' }, /audit_severity_idx/],
      [{ severity: 'LOW' }, /audit_time_id_idx/]
    ]
    for (const [filters, index] of cases) {
      const statements = await pageStatements(filters)
      expect(statements.length, JSON.stringify(filters)).to.equal(2)
      for (const text of statements) {
        const plan = await planOf(text)
        const why = `${JSON.stringify(filters)}\n${text}\n${plan}`
        // LOW is most of the log: its count may scan the table, stopping at the count's limit (10,001 matches).
        if (filters.severity === 'LOW' && text.includes('count(*)')) expect(plan, why).to.match(/Limit {2}\(cost=[^)]* rows=10001 /)
        else
          expect(plan, why)
            .to.match(index)
            .and.not.to.match(/Seq Scan on audit_logs/)
      }
    }
  })

  it("a deleted user's entries are found through the user index (the foreign key's own lookup, as a generic plan)", async () => {
    await db().query(
      `INSERT INTO audit_logs (timestamp, user_id, action, resource, resource_id, severity, ip_address, details)
       SELECT now() - make_interval(secs => g), NULL, 'ORDER_DELIVERED', 'ORDER', g::text, 'LOW', NULL, '{}' FROM generate_series(1, 20000) g`
    )
    await db().query('ANALYZE audit_logs')
    await rolledBack(async (t) => {
      const plan = await genericPlan('UPDATE ONLY audit_logs SET user_id = NULL WHERE $1::int OPERATOR(pg_catalog.=) user_id', t)
      expect(plan, plan).to.match(/(Index Scan using|Bitmap Index Scan on) audit_user_idx\b/)
    })
  })

  it('down puts the indexes back as they were', async () => {
    expect(await indexesAfterDown(down, PARTIAL)).to.deep.equal([
      'CREATE INDEX audit_ip_idx ON audit_logs USING btree (ip_address, "timestamp" DESC)',
      'CREATE INDEX audit_severity_idx ON audit_logs USING btree (severity, "timestamp" DESC)',
      'CREATE INDEX audit_user_idx ON audit_logs USING btree (user_id, "timestamp" DESC)'
    ])
  })
})
