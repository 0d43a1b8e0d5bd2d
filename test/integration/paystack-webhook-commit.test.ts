import { expect } from 'chai'
import pg from 'pg'
import { QueryTypes } from 'sequelize'
import { down } from '../../models/migrations/410_overview_not_told_by_gateway_events.ts'
import { onFakePaystack, paystackOrder, postPaystackWebhook } from '../helpers/instance.ts'
import { app } from '../helpers/server.ts'

interface Sent {
  client: object
  text: string
  values: unknown[]
}

/** Every statement any pool sends while `fn` runs, with the connection that sent it. */
async function statementsOf(fn: () => Promise<unknown>): Promise<Sent[]> {
  const sent: Sent[] = []
  const query = pg.Client.prototype.query as (...a: unknown[]) => unknown
  ;(pg.Client.prototype as { query: unknown }).query = function (this: pg.Client, ...a: unknown[]) {
    const c = a[0] as string | { text?: string; values?: unknown[] }
    const text = (typeof c === 'string' ? c : (c?.text ?? '')).replace(/\s+/g, ' ').trim()
    sent.push({ client: this, text, values: (typeof c === 'object' && c?.values) || (Array.isArray(a[1]) ? (a[1] as unknown[]) : []) })
    return query.apply(this, a)
  }
  try {
    await fn()
  } finally {
    ;(pg.Client.prototype as { query: unknown }).query = query
  }
  return sent
}

/** The statements a connection sent inside the transaction in which it sent `inside`: from its START TRANSACTION to its COMMIT. */
function transactionAround(sent: Sent[], inside: (s: Sent) => boolean): Sent[] {
  const at = sent.findIndex(inside)
  expect(at, 'the statement was sent').to.be.greaterThan(-1)
  const mine = sent.filter((s) => s.client === sent[at]!.client)
  const i = mine.indexOf(sent[at]!)
  let start = i
  while (start >= 0 && !/^START TRANSACTION/.test(mine[start]!.text)) start--
  let end = i
  while (end < mine.length && !/^COMMIT/.test(mine[end]!.text)) end++
  if (start < 0 || end === mine.length) return []
  return mine.slice(start, end + 1)
}

// A second app instance configured with a Paystack key, on the same database, against a local fake Paystack.
describe("a Paystack charge.success webhook's commits", function () {
  this.timeout(30_000)
  const on = onFakePaystack('sk_test_x')
  const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) =>
    app().db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })
  const postWebhook = (body: string, signature: string) => postPaystackWebhook(on.ps(), body, signature)

  async function paidOrder() {
    const { tid } = await paystackOrder(on.ps())
    on.fake().complete(tid, 'success')
    return tid
  }

  it("settles in one commit that waits for the WAL flush: the event's record waits for none, the payment is read once, the event is marked in the settlement's transaction", async () => {
    const tid = await paidOrder()
    const { body, signature } = on.fake().webhook(tid)
    let status = 0
    const sent = await statementsOf(async () => {
      status = (await postWebhook(body, signature)).status
    })
    expect(status).to.equal(200)
    const shown = sent.map((s) => s.text.slice(0, 100)).join('\n')
    // The event's record: its commit does not wait (the settlement's, later in the WAL, flushes it before the answer).
    const stored = sent.filter((s) => /\bINSERT INTO gateway_events\b/.test(s.text))
    expect(stored, shown).to.have.length(1)
    expect(stored[0]!.text).to.include("set_config('synchronous_commit', 'off', true)")
    // The payment is read once before its settlement, in the event's record's statement: whose it is, and the
    // settlement's `before`.
    const reads = sent.filter((s) => /\bSELECT .* FROM payments WHERE transaction_id/s.test(s.text) && (s.text.includes(tid) || s.values.includes(tid)))
    expect(reads, shown).to.deep.equal(stored)
    // The mark is written by the settling statement itself, fed by the payment's UPDATE, and the statement is its own
    // transaction (ADR 0086, "Alone"): no statement, no START and no commit of its own.
    const settling = sent.filter((s) => /^WITH v AS .*UPDATE payments SET status/.test(s.text) && s.values.includes(tid))
    expect(settling, shown).to.have.length(1)
    expect(settling[0]!.text).to.include('gm AS (UPDATE gateway_events SET handled = true')
    expect(
      sent.filter((s) => /^UPDATE gateway_events SET handled/.test(s.text) || /^(START TRANSACTION|COMMIT)/.test(s.text)),
      shown
    ).to.deep.equal([])
    const [event] = await q<{ handled: boolean; note: string; received_count: number }>('SELECT handled, note, received_count FROM gateway_events')
    expect(event).to.deep.include({ handled: true, note: 'Settled', received_count: 1 })
    expect((await app().services.payments.load(tid))!.status).to.equal('SUCCESS')
  })

  it('an event for a payment already settled is kept and marked on its own; nothing is settled again', async () => {
    const tid = await paidOrder()
    const first = on.fake().webhook(tid)
    expect((await postWebhook(first.body, first.signature)).status).to.equal(200)
    // The same event again, and another event of the same payment (another id at the gateway).
    expect((await postWebhook(first.body, first.signature)).status).to.equal(200)
    const again = JSON.parse(first.body) as { event: string; data: Record<string, unknown> }
    const other = on.fake().event(again.event, { ...again.data, id: 987654 })
    const sent = await statementsOf(async () => expect((await postWebhook(other.body, other.signature)).status).to.equal(200))
    const mark = sent.find((s) => /^UPDATE gateway_events SET handled/.test(s.text))
    expect(mark, 'marked').to.not.equal(undefined)
    expect(transactionAround(sent, (s) => s === mark)).to.deep.equal([])
    const events = await q<{ handled: boolean; note: string; received_count: number }>('SELECT handled, note, received_count FROM gateway_events ORDER BY id')
    expect(events).to.deep.equal([
      { handled: true, note: 'Settled', received_count: 2 },
      { handled: true, note: 'Settled', received_count: 1 }
    ])
    expect((await q<{ n: string }>(`SELECT count(*) AS n FROM audit_logs WHERE action = 'PAYMENT_SUCCESS'`))[0]!.n).to.equal('1')
    expect((await q<{ n: string }>('SELECT count(*) AS n FROM commissions'))[0]!.n).to.equal('1')
  })

  it("sends no notice: its event's record, its mark and its settlement take no notify lock at commit; down puts the overview's trigger back", async () => {
    const tid = await paidOrder()
    const { body, signature } = on.fake().webhook(tid)
    const listener = new pg.Client({ connectionString: app().db.url })
    await listener.connect()
    try {
      let heard: string[] = []
      listener.on('notification', (n) => heard.push(n.payload ?? ''))
      await listener.query('LISTEN datahub_changes')
      expect((await postWebhook(body, signature)).status).to.equal(200)
      expect(await q('SELECT handled FROM gateway_events')).to.deep.equal([{ handled: true }])
      // Notices arrive in commit order: every one the webhook's commits sent is heard before this marker.
      const marker = `test:${Math.random()}`
      await q('SELECT pg_notify(:channel, :marker)', { channel: 'datahub_changes', marker })
      while (!heard.includes(marker)) await new Promise((r) => setImmediate(r))
      heard = heard.slice(0, heard.indexOf(marker))
      expect(heard).to.deep.equal([])
    } finally {
      await listener.end()
    }
    const { sequelize } = app().db
    const names = "SELECT tgname FROM pg_trigger WHERE tgname = 'gateway_events_overview_page_notify'"
    expect(await sequelize.query(names, { type: QueryTypes.SELECT })).to.deep.equal([])
    // Rolled back: the test database keeps the migrated schema.
    const t = await sequelize.transaction()
    try {
      await down({ context: (sql) => sequelize.query(sql, { transaction: t }) })
      expect(await sequelize.query(names, { type: QueryTypes.SELECT, transaction: t })).to.deep.equal([{ tgname: 'gateway_events_overview_page_notify' }])
    } finally {
      await t.rollback()
    }
  })

  it('a settlement that fails leaves the event unmarked and the payment open: the gateway, answered 500, sends it again', async () => {
    const tid = await paidOrder()
    const { body, signature } = on.fake().webhook(tid)
    await q(`CREATE FUNCTION webhook_test_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$`)
    await q(
      `CREATE TRIGGER webhook_test_fail BEFORE INSERT ON audit_logs FOR EACH ROW WHEN (NEW.action = 'PAYMENT_SUCCESS') EXECUTE FUNCTION webhook_test_fail()`
    )
    try {
      expect((await postWebhook(body, signature)).status).to.equal(500)
    } finally {
      await q('DROP TRIGGER webhook_test_fail ON audit_logs')
      await q('DROP FUNCTION webhook_test_fail()')
    }
    expect((await app().services.payments.load(tid))!.status).to.not.equal('SUCCESS')
    expect(await q('SELECT handled, note FROM gateway_events')).to.deep.equal([{ handled: false, note: null }])
    expect((await postWebhook(body, signature)).status).to.equal(200)
    expect((await app().services.payments.load(tid))!.status).to.equal('SUCCESS')
    expect(await q('SELECT handled, note, received_count FROM gateway_events')).to.deep.equal([{ handled: true, note: 'Settled', received_count: 2 }])
  })
})
