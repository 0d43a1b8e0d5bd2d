import { expect } from 'chai'
import { QueryTypes, type Transaction } from 'sequelize'
import { down } from '../../models/migrations/421_orders_index_entries.ts'
import { createAgent, createOrder } from '../helpers/factories.ts'
import { genericPlan } from '../helpers/generic-plan.ts'
import { indexRecords } from '../helpers/index-records.ts'
import { indexesAfterDown, rolledBack } from '../helpers/rolled-back.ts'
import { app, resetDb } from '../helpers/server.ts'
import { pendingSimulatorOrder } from '../helpers/simulator-order.ts'

// The orders' index entries (ADR 0082): each row version of a visitor's order writes one record in one trigram
// index for the admins' search, none in the agent index; an agent's order none in the paying phone's index. Every
// reader of those indexes still reads one on a large table.

const db = () => app().db.sequelize
const sql = <T extends object = any>(text: string, replacements: Record<string, unknown> = {}, transaction?: Transaction) =>
  db().query<T>(text, { replacements, type: QueryTypes.SELECT, transaction }) as Promise<T[]>

const GONE = ['orders_recipient_trgm_idx', 'orders_txid_trgm_idx']
const CHANGED = ['orders_agent_idx', 'orders_payment_phone_idx', 'orders_search_trgm_idx']

/** The statements on orders that `fn` sends, as PostgreSQL receives them. */
async function statementsOf(fn: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = []
  const options = (db() as unknown as { options: { logging?: unknown } }).options
  const was = options.logging
  options.logging = (text: string) => sent.push(text.replace(/^Executing \([^)]*\): /, ''))
  try {
    await fn()
  } finally {
    options.logging = was
  }
  const onOrders = sent.filter((s) => s.startsWith('SELECT') && /\borders(_view)?\b/.test(s))
  expect(onOrders.length, sent.join('\n')).to.be.greaterThan(0)
  return onOrders
}

/**
 * The plan of `text`. `indexable`: with sequential scans priced out, the question asked is whether the index can serve
 * the statement at all; on 60,000 rows a substring's search still reads the table faster than any index, as on main.
 */
const planOf = (text: string, indexable: boolean): Promise<string> =>
  rolledBack(async (t) => {
    if (indexable) await db().query('SET LOCAL enable_seqscan = off', { transaction: t })
    return (await sql<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, {}, t)).map((r) => r['QUERY PLAN']).join('\n')
  })

/**
 * The admins' list statement's conditions on orders alone: with no order to keep, the plan shows what serves the
 * search's arms (the list itself walks the newest first, or reads the whole table, on 60,000 rows).
 */
function searchOnly(text: string): string {
  const where = / WHERE (NOT o\.exported AND .*?) (?:ORDER BY|LIMIT) /s.exec(text)?.[1]
  return where ? `SELECT o.id FROM orders o WHERE ${where.replace('NOT o.exported AND ', '')}` : text
}

/**
 * No statement's plan scans the whole of orders, and `index` (when given) serves at least one of them: an agent's
 * page of orders may walk the newest orders first and keep the agent's, its counts read the agent's index.
 */
async function expectIndexed(statements: string[], index: RegExp | null, what: string, indexable = false) {
  const plans: string[] = []
  for (const text of indexable ? statements.map(searchOnly) : statements) {
    const plan = await planOf(text, indexable)
    const why = `${what}\n${text}\n${plan}`
    plans.push(why)
    // A capped count of a filter that matches a fifth of the orders or more may read the table: it stops at the cap.
    if (!indexable && / LIMIT \d+\) capped$/.test(text) && /Seq Scan on orders\b/.test(plan)) {
      expect(plan, why).to.match(/^Aggregate[^\n]*\n\s*->\s+Limit /)
      continue
    }
    expect(plan, why).not.to.match(/Seq Scan on orders\b/)
    if (index && indexable) expect(plan, why).to.match(index)
  }
  if (index) expect(plans.join('\n'), plans.join('\n')).to.match(index)
}

describe("the orders' index entries", function () {
  this.timeout(120_000)
  beforeEach(resetDb)

  it("a visitor's settlement writes one search entry and none in the agent index; an agent's order none for its paying phone", async () => {
    const o = await pendingSimulatorOrder()
    await app().services.settings.get()
    const settled = await indexRecords(['orders'], async () => {
      const approved = { status: 'SUCCESS' as const, message: 'Approved', amountPesewas: 450, currency: 'GHS' }
      expect((await app().services.payments.settle(o.tid, approved)).settled).to.equal(true)
    }, ['Btree', 'Gin'])
    const why = JSON.stringify(settled)
    expect(settled.orders_pkey, why).to.be.greaterThan(0)
    expect(settled.orders_payment_phone_idx, why).to.be.greaterThan(0)
    // GIN's pending list: the new row version's trigrams of both columns in one record.
    expect(settled.orders_search_trgm_idx, why).to.equal(1)
    expect(settled.orders_agent_idx, why).to.equal(undefined)
    expect(await sql('SELECT indexname FROM pg_indexes WHERE indexname IN (:names)', { names: GONE })).to.deep.equal([])

    const { user, agent } = await createAgent()
    const own = await createOrder({ agentId: agent.id, userId: user.id, paymentPhoneNumber: '0241112222', paymentStatus: 'SUCCESS' })
    // Not HOT: delivery_status is in partial indexes' conditions, as for the pump's claim.
    const claimed = await indexRecords(['orders'], () =>
      db().query(`UPDATE orders SET delivery_status = 'QUEUED' WHERE id = :id`, { replacements: { id: own.id } })
    )
    expect(claimed.orders_agent_idx, JSON.stringify(claimed)).to.be.greaterThan(0)
    expect(claimed.orders_payment_phone_idx, JSON.stringify(claimed)).to.equal(undefined)
  })

  it("the admins' search and filters, the lookup by phone and the agent's orders read an index on a large table", async () => {
    const agents = await Promise.all([0, 1, 2].map(() => createAgent()))
    const [{ user, agent }] = agents as [(typeof agents)[number]]
    // A shop's orders: four in five a visitor's (paying phone, no agent), the rest the agents'.
    // Straight in, without the orders' triggers (rollups, export candidates, page notices): the plans are the question.
    const seed = await db().transaction()
    await db().query('SET LOCAL session_replication_role = replica', { transaction: seed })
    await db().query(
      `INSERT INTO orders (recipient_number, network, data_size_mb, amount_pesewas, payment_status, payment_transaction_id, payment_phone_number,
                           agent_id, user_id, created_at)
       SELECT '024' || lpad(g::text, 7, '0'), 'MTN', 1024, 500, 'SUCCESS', 'DH-' || md5(g::text), CASE WHEN g % 5 <> 0 THEN '020' || lpad(g::text, 7, '0') END,
              CASE WHEN g % 5 = 0 THEN (ARRAY[:agentIds]::int[])[1 + g % 3] END, CASE WHEN g % 5 = 0 THEN (ARRAY[:userIds]::int[])[1 + g % 3] END,
              now() - g * interval '1 second'
         FROM generate_series(1, :n) g`,
      { replacements: { n: 60000, agentIds: agents.map((a) => a.agent.id), userIds: agents.map((a) => a.user.id) }, transaction: seed }
    )
    await seed.commit()
    await db().query('ANALYZE orders')
    const admin = app().services.ordersAdmin
    const list = (q: Record<string, unknown>) => statementsOf(() => admin.list({ page: 1, limit: 20, ...q }))
    const search = /orders_search_trgm_idx/
    await expectIndexed(await list({ search: '0240012345' }), search, 'search by a phone', true)
    await expectIndexed(await list({ search: '0012345' }), search, 'search by seven digits', true)
    await expectIndexed(await list({ search: 'DH-c4ca4238' }), search, 'search by a transaction id', true)
    await expectIndexed(await list({ search: 'c4ca4238a0b9' }), search, 'search by part of a transaction id', true)
    await expectIndexed(await list({ orderType: 'direct' }), null, 'direct orders')
    await expectIndexed(await list({ orderType: 'agent' }), null, "agents' orders")

    const byPhone = await statementsOf(() => app().services.orders.lookupByPhone('0200012346'))
    await expectIndexed(byPhone, /orders_payment_phone_idx[\s\S]*orders_recipient_idx|orders_recipient_idx[\s\S]*orders_payment_phone_idx/, 'lookup by phone')

    const ctx = { user: { ...user, role: 'AGENT', agent } } as never
    await expectIndexed(await statementsOf(() => app().services.agentOrders.list({}, ctx)), /orders_agent_idx/, "an agent's orders")
    await expectIndexed(await statementsOf(() => app().services.agentOrders.summary(ctx)), /orders_agent_idx/, "an agent's dashboard")
    const ussd = `SELECT id FROM orders WHERE (agent_id = ${agent.id} OR user_id = ${user.id}) AND payment_transaction_id LIKE '%1234'
                   ORDER BY created_at DESC, id DESC LIMIT 1`
    await expectIndexed([ussd], /orders_agent_idx|orders_search_trgm_idx/, "USSD: an agent's order by its transaction id's last digits")

    // The agents' foreign key's own lookup, as a generic plan.
    await rolledBack(async (t) => {
      const plan = await genericPlan('UPDATE ONLY orders SET agent_id = NULL WHERE $1::int OPERATOR(pg_catalog.=) agent_id', t)
      expect(plan, plan).to.match(/(Index Scan using|Bitmap Index Scan on) orders_agent_idx\b/)
    })
  })

  it('down puts the indexes back as they were', async () => {
    expect(await indexesAfterDown(down, [...GONE, ...CHANGED])).to.deep.equal([
      'CREATE INDEX orders_agent_idx ON orders USING btree (agent_id, created_at DESC)',
      'CREATE INDEX orders_payment_phone_idx ON orders USING btree (payment_phone_number)',
      'CREATE INDEX orders_recipient_trgm_idx ON orders USING gin (recipient_number gin_trgm_ops)',
      'CREATE INDEX orders_txid_trgm_idx ON orders USING gin (payment_transaction_id gin_trgm_ops)'
    ])
  })
})
