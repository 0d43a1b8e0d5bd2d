import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { committedAlready } from '../../models/transaction.ts'
import { preparedFor } from '../../models/prepared.ts'
import { createPricingQueries } from '../../server/services/pricing/queries.ts'
import { createAgent } from '../helpers/factories.ts'
import { resellerWithKey } from '../helpers/reseller.ts'
import { everyCount as everyTableCount } from '../helpers/row-counts.ts'
import { app, resetDb } from '../helpers/server.ts'
import { statementsSent } from '../helpers/statements.ts'

/**
 * A wallet order over the reseller API written by one autocommitted statement (ADR 0079): the key's statement, then the
 * order's, with no START and no COMMIT. When the statement must not commit it raises (migration 413) and nothing of it
 * is kept; the cases it cannot hold are placed in a transaction as before.
 */
const sql = <T extends object = any>(text: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>

// The API key's statement counts each request (its rate window, its last use): every request's, placed or not.
const everyCount = () => everyTableCount(['public.rate_limits', 'public.api_keys'])

/** The app's own START and COMMIT (`transactionOn`'s; a test's own connection sends its BEGIN and COMMIT without ';'). */
const transactional = (sent: string[]) => sent.filter((s) => /^(START TRANSACTION|COMMIT);$/.test(s))
const ONE_STATEMENT = /^WITH o AS \(\s*INSERT INTO orders\b[\s\S]*\bdatahub_wallet_order_refused\(/

describe('a wallet order over the reseller API in one autocommitted statement (ADR 0079)', function () {
  this.timeout(30_000)
  beforeEach(resetDb)

  it('a wallet that does not cover it: 402 with the balance, and nothing at all written', async () => {
    const { pkg, api } = await resellerWithKey(5, 'Short')
    expect((await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112200' }, { 'Idempotency-Key': 'first' })).status).to.equal(201)
    const before = await everyCount()
    const { out, sent } = await statementsSent(() =>
      api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112211' }, { 'Idempotency-Key': 'second' })
    )
    expect(out.status, out.text).to.equal(402)
    expect(out.body).to.deep.include({ error: 'Insufficient wallet balance', balance: 0.5 })
    expect(sent.filter((s) => ONE_STATEMENT.test(s))).to.have.length(1)
    expect(transactional(sent), sent.join('\n')).to.deep.equal([])
    expect(await everyCount()).to.deep.equal(before)
    // The key was never recorded: the same key places the order once the wallet covers it.
    expect((await sql('SELECT key FROM idempotency_keys')).map((k) => k.key)).to.deep.equal(['first'])
  })

  it('an Idempotency-Key another request holds: the order written before the key waits is not kept, and the first request answers', async () => {
    const { pkg, a, api } = await resellerWithKey(20, 'Held')
    const before = await everyCount()
    const locker = await app().db.sequelize.connectionManager.getConnection({ type: 'write' })
    const q = (text: string) => (locker as unknown as { query(t: string): Promise<unknown> }).query(text)
    try {
      await q('BEGIN')
      await q(`INSERT INTO idempotency_keys (agent_id, key, request_hash, order_id) VALUES (${Number(a.agent.id)}, 'held', 'another request', NULL)`)
      const pending = statementsSent(() => api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112211' }, { 'Idempotency-Key': 'held' }))
      // Waits on the key's row: its statement has written the order and its entry by then.
      for (let i = 0; i < 200; i++) {
        const [w] = await sql<{ n: string }>(`SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'WITH o AS%'`)
        if (Number(w!.n) > 0) break
        await new Promise((r) => setTimeout(r, 25))
      }
      await q('COMMIT')
      const { out, sent } = await pending
      // The key's earlier use is another request's: a different one. The order's statement ran, and waited on the key.
      expect(out.status, out.text).to.equal(422)
      expect(sent.filter((s) => ONE_STATEMENT.test(s))).to.have.length(1)
      expect(transactional(sent), sent.join('\n')).to.deep.equal([])
    } finally {
      await q('ROLLBACK').catch(() => {})
      await app().db.sequelize.connectionManager.releaseConnection(locker)
    }
    expect(await everyCount()).to.deep.equal({ ...before, 'public.idempotency_keys': before['public.idempotency_keys']! + 1 })
    expect(await sql('SELECT count(*)::int AS n FROM orders')).to.deep.equal([{ n: 0 }])
  })

  it('settings saved since the copy (not heard of yet): the statement keeps nothing and the order is placed in a transaction as before', async () => {
    const { pkg, api } = await resellerWithKey(20, 'Saved')
    expect((await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112200' }, { 'Idempotency-Key': 'warm-up' })).status).to.equal(201)
    await sql(`UPDATE settings SET data = data WHERE id = 1 RETURNING id`)
    const { out, sent } = await statementsSent(() =>
      api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112211' }, { 'Idempotency-Key': 'one' })
    )
    expect(out.status, out.text).to.equal(201)
    expect(sent.filter((s) => ONE_STATEMENT.test(s))).to.have.length(1)
    expect(transactional(sent), sent.join('\n')).to.deep.equal(['START TRANSACTION;', 'COMMIT;'])
    const [n] = await sql(`SELECT (SELECT count(*)::int FROM orders) AS orders, (SELECT count(*)::int FROM payments) AS payments,
      (SELECT count(*)::int FROM wallet_entries WHERE type = 'ORDER') AS debits, (SELECT count(*)::int FROM audit_logs WHERE action IN ('ORDER_CREATED', 'PAYMENT_SUCCESS')) AS entries,
      (SELECT count(*)::int FROM idempotency_keys) AS keys, (SELECT count(*)::int FROM sms_outbox) AS texts`)
    expect(n).to.deep.include({ orders: 2, payments: 2, debits: 2, entries: 4, keys: 2 })
  })

  it('a platform closed by a save not heard of yet: 403, and nothing written', async () => {
    const { pkg, api } = await resellerWithKey(20, 'Closed')
    expect((await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112200' }, { 'Idempotency-Key': 'warm-up' })).status).to.equal(201)
    await sql(`UPDATE settings SET data = jsonb_set(data, '{platformOpen}', 'false') WHERE id = 1 RETURNING id`)
    const before = await everyCount()
    const out = await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112211' }, { 'Idempotency-Key': 'one' })
    expect(out.status, out.text).to.equal(403)
    expect(await everyCount()).to.deep.equal(before)
  })

  it('an agent given a webhook URL after its request was read: the statement keeps nothing, and the order with its webhook jobs is placed in a transaction', async () => {
    const { pkg, a, portal } = await resellerWithKey(20, 'Late hook')
    expect((await portal.put('/api/reseller/webhook', { url: 'http://127.0.0.1:9/hooks' })).status).to.equal(200)
    const actor = (await app().services.auth.loadActor(a.user.id))!
    // The price rule's read and "no webhook URL" as the key's statement would have read them a moment before the URL was saved.
    const standing = await createPricingQueries(app().db.sequelize).buyerAndTiers(a.agent.id, [pkg.id])
    const { out, sent } = await statementsSent(() =>
      app().services.orders.placeOrder(
        { packageId: pkg.id, recipientNumber: '0241112211', payFrom: 'wallet', channel: 'api' },
        { user: actor },
        { agentHooked: false, standingRead: { agentId: a.agent.id, packageIds: [pkg.id], standing } }
      )
    )
    expect(out.row).to.include({ payment_status: 'SUCCESS' })
    expect(sent.filter((s) => ONE_STATEMENT.test(s))).to.have.length(1)
    expect(transactional(sent), sent.join('\n')).to.deep.equal(['START TRANSACTION;', 'COMMIT;'])
    const jobs = await sql(
      `SELECT j.id FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = 'agent-webhook'`
    )
    expect(jobs).to.have.length(2)
    expect(await sql('SELECT count(*)::int AS n FROM orders')).to.deep.equal([{ n: 1 }])
  })

  it('placed in a transaction as before: an agent with a webhook URL, a sub-agent, the portal', async () => {
    const { pkg, a, api, portal } = await resellerWithKey(20, 'Paths')
    const sends = async (fn: () => Promise<{ status: number; text: string }>) => {
      const { out, sent } = await statementsSent(fn)
      expect(out.status, out.text).to.equal(201)
      return { alone: sent.filter((s) => ONE_STATEMENT.test(s)).length, transaction: transactional(sent) }
    }
    const viaApi = (key: string) => () => api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112211' }, { 'Idempotency-Key': key })
    expect(await sends(viaApi('plain'))).to.deep.equal({ alone: 1, transaction: [] })
    expect(await sends(() => portal.post('/api/orders', { packageId: pkg.id, recipientNumber: '0241112222', payFrom: 'wallet' }))).to.deep.equal({
      alone: 0,
      transaction: ['START TRANSACTION;', 'COMMIT;']
    })
    expect((await portal.put('/api/reseller/webhook', { url: 'http://127.0.0.1:9/hooks' })).status).to.equal(200)
    expect(await sends(viaApi('hooked'))).to.deep.equal({ alone: 0, transaction: ['START TRANSACTION;', 'COMMIT;'] })
    expect((await portal.put('/api/reseller/webhook', { url: null })).status).to.equal(200)
    const parent = await createAgent()
    await sql('UPDATE agents SET parent_agent_id = :p WHERE id = :id', { p: parent.agent.id, id: a.agent.id })
    expect(await sends(viaApi('sub-agent'))).to.deep.equal({ alone: 0, transaction: ['START TRANSACTION;', 'COMMIT;'] })
    expect(await sql('SELECT count(*)::int AS n FROM orders')).to.deep.equal([{ n: 4 }])
  })

  it("what settlement's effects do after the statement runs in no transaction: only the delivery pump's hand-off, and only the webhooks listen", async () => {
    const t = committedAlready(app().db.sequelize)
    let ran = false
    t.afterCommit(() => {
      ran = true
    })
    expect(ran).to.equal(true)
    const refused = async (p: Promise<unknown>) =>
      (
        await p.then(
          () => null,
          (e: Error) => e
        )
      )?.message
    expect(await refused(app().db.sequelize.query('SELECT 1', { transaction: t }))).to.match(/commit has been called on this transaction/)
    expect(await refused(preparedFor(app().db.sequelize)('SELECT 1', [], t))).to.equal('a statement sent in a transaction that has committed already')
    // The subscribers of the events a wallet order's settlement publishes: each a webhook that does nothing for an agent
    // without a URL (the only orders placed this way). A new one must be weighed against ADR 0079 before this changes.
    const { events } = app().services
    expect(events.scopes('order.settled')).to.have.length(1)
    expect(
      events.scopes('delivery.changed').filter((s) => (s as { to?: string[] }).to === undefined || (s as { to?: string[] }).to!.includes('QUEUED'))
    ).to.have.length(1)
  })
})
