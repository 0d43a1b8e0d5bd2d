import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { createDeliveryQueries } from '../../server/services/delivery/queries.ts'
import { createSmsQueries, whereOf } from '../../server/services/sms/queries.ts'
import { indexRecords } from '../helpers/index-records.ts'
import { app, resetDb } from '../helpers/server.ts'

// A text's claim (QUEUED -> SENDING) changes no column that an index of sms_outbox names, so it adds no index
// entry (a HOT update); the minute sweep still finds a claimed text whose process died, through the index of
// pending texts. Counted in WAL records of the indexes and in plans, never in time.

const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })

/** `n` QUEUED texts written as settlement writes an order's text; their ids. */
async function queued(n: number): Promise<number[]> {
  const rows = await q<{ id: number }>(
    `INSERT INTO sms_outbox (to_phone, message, status, sensitive, created_at, updated_at)
     SELECT '233241234567', 'Order ' || g || ' received: 1GB for 0241234567, paid GHS 5.00', 'QUEUED', false, now(), now()
     FROM generate_series(1, :n) g RETURNING id`,
    { n }
  )
  return rows.map((r) => Number(r.id))
}

describe("sms: a text's claim adds no index entry; the sweep still finds claimed texts", function () {
  this.timeout(60_000)
  beforeEach(resetDb)

  it("the dispatcher's claim of 10 texts writes no entry in any index of sms_outbox", async () => {
    const ids = await queued(10)
    let claimed = 0
    const entries = await indexRecords(['sms_outbox'], async () => {
      claimed = (await createSmsQueries(app().db.sequelize).claim(ids, 'log', 30)).length
    })
    expect(claimed).to.equal(10)
    expect(entries, 'index entries written by the claim').to.deep.equal({})
  })

  it("the DELIVERED statement's claim of an order's text writes no entry for it; the new delivered text one per index", async () => {
    const [order] = await q<{ id: number }>(
      `INSERT INTO orders (recipient_number, network, data_size_mb, amount_pesewas, payment_status, payment_transaction_id, payment_phone_number,
         package_name, delivery_status, delivery_attempts, delivery_vendor)
       VALUES ('0241234567', 'MTN', 1024, 500, 'SUCCESS', 'claim-hot-1', '0241234567', '1GB daily', 'PROCESSING', 1, 'simulator') RETURNING id`
    )
    const [text] = await queued(1)
    let claimed: number[] = []
    const entries = await indexRecords(['sms_outbox'], async () => {
      const done = await createDeliveryQueries(app().db.sequelize).markDelivered(
        [{ id: Number(order!.id), reference: 'ref-1', via: 'simulator', phone: '233241234567', message: 'Your data has been delivered' }],
        ['PROCESSING'],
        '',
        { ids: [text!], provider: 'log' }
      )
      claimed = done.claimed.map((c) => c.id)
    })
    expect(claimed).to.include(text)
    expect(claimed).to.have.length(2)
    // The delivered text's insert: one entry in each of the three indexes; the order text's claim: none.
    expect(entries).to.deep.equal({ sms_outbox_pkey: 1, sms_outbox_created_idx: 1, sms_outbox_pending_idx: 1 })
  })

  it('a claimed text whose process died is swept and sent once; SENT and FAILED texts are not swept', async () => {
    const [dead, sent, failed] = await queued(3)
    const queries = createSmsQueries(app().db.sequelize)
    await queries.claim([dead!, sent!], 'log', 30)
    await queries.markSent([{ id: sent!, mid: 'log-1' }])
    await queries.markFailed(failed!, 'refused')
    await q(`UPDATE sms_outbox SET updated_at = now() - interval '5 minutes', created_at = now() - interval '5 minutes' RETURNING id`)
    expect(await app().services.sms.sweep()).to.equal(1)
    await app().services.queue.drain()
    const rows = await q<{ id: number; status: string; attempts: number }>('SELECT id, status, attempts FROM sms_outbox ORDER BY id')
    expect(rows.map((r) => [Number(r.id), r.status, r.attempts])).to.deep.equal([
      [dead, 'SENT', 2],
      [sent, 'SENT', 1],
      [failed, 'FAILED', 0]
    ])
    expect(await app().services.sms.sweep()).to.equal(0)
  })

  it("the sweep's statement and the admin's list of QUEUED texts read the index of pending texts among 20,000 sent ones", async () => {
    await q(
      `INSERT INTO sms_outbox (to_phone, message, status, sensitive, attempts, provider, sent_at, created_at, updated_at)
       SELECT '233241234567', 'Order ' || g || ' received', 'SENT', false, 1, 'log', now(), now() - interval '1 day', now() - interval '1 day'
       FROM generate_series(1, 20000) g`
    )
    await queued(20)
    await q('ANALYZE sms_outbox')
    const plan = await q<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT id FROM sms_outbox WHERE NOT finished AND updated_at < now() - make_interval(secs => 30) ORDER BY created_at LIMIT 500`
    )
    const text = plan.map((r) => r['QUERY PLAN']).join('\n')
    expect(text).to.include('sms_outbox_pending_idx')
    expect(text).not.to.include('Seq Scan')
    // The admin's page and count of QUEUED texts, with the condition the SMS page's statements are built with.
    const filter = { status: 'QUEUED', phone: '' }
    for (const sql of [
      `SELECT * FROM sms_outbox WHERE ${whereOf(filter)} ORDER BY created_at DESC, id DESC LIMIT 20`,
      `SELECT count(*) FROM sms_outbox WHERE ${whereOf(filter)}`
    ]) {
      const rows = await q<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, filter)
      const shown = rows.map((r) => r['QUERY PLAN']).join('\n')
      expect(shown, sql).to.include('sms_outbox_pending_idx')
      expect(shown, sql).not.to.include('Seq Scan')
    }
    const list = await app().services.sms.list({ status: 'QUEUED' })
    expect(list.pagination.total).to.equal(20)
  })
})
