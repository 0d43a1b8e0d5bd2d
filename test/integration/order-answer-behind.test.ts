import { expect } from 'chai'
import pg from 'pg'
import { QueryTypes } from 'sequelize'
import { SIM_PROMPT_MESSAGE } from '../../server/services/payments/simulator.ts'
import { createPackage } from '../helpers/factories.ts'
import { Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

/**
 * A visitor's order is answered without waiting for the statement that saves the gateway's word on its charge,
 * when that word moves nothing (ADR 0064): the payment stays PENDING and nothing is asked of the payer. The test
 * holds that statement (a statement trigger on payments waits for an advisory lock the test holds, only for the
 * statement that writes `authorizationUrl`, the answer's) and shows the order answered meanwhile, with the
 * payment as the statement then leaves it; a settlement that comes first keeps its own message; and an answer
 * that cannot be written leaves the payment PENDING and claimed, for reconciliation to ask about.
 */
const LOCK = 4_620_064
const sql = async <T extends object = any>(text: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT })
const rowOf = async (tid: string) =>
  (
    await sql<{ status: string; message: string | null; ext_transaction_id: string | null; details: Record<string, unknown> }>(
      'SELECT status, message, ext_transaction_id, details FROM payments WHERE transaction_id = :tid',
      { tid }
    )
  )[0]!

/** Until the answer's statement has run (its `authorizationUrl` key is on the row); bounded, never timed. */
async function answerSaved(tid: string) {
  for (let i = 0; i < 200; i++) {
    if ('authorizationUrl' in (await rowOf(tid)).details) return
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error('the gateway answer was never saved')
}

/** The order, or a failure when it is still unanswered long after its answer's statement was held. */
function answeredWhileHeld<T>(placing: Promise<T>): Promise<T> {
  return Promise.race([
    placing,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error("the order waited for the gateway's answer to be saved")), 10_000).unref())
  ])
}

describe("a visitor's order: the gateway's word saved behind the answer (ADR 0064)", function () {
  this.timeout(60_000)
  let locker: pg.Client
  beforeEach(async () => {
    await resetDb()
    await sql(`CREATE OR REPLACE FUNCTION test_hold_start_answer() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF current_query() LIKE '%''authorizationUrl''%' THEN
          IF EXISTS (SELECT 1 FROM pg_class WHERE relname = 'test_answer_tries') THEN
            -- A sequence's step outlives the rollback: the test sees the statement was tried.
            PERFORM nextval('test_answer_tries');
            RAISE EXCEPTION 'the answer cannot be written';
          END IF;
          PERFORM pg_advisory_xact_lock(${LOCK});
        END IF;
        RETURN NULL;
      END $$`)
    await sql('DROP TRIGGER IF EXISTS test_hold_start_answer ON payments')
    await sql('CREATE TRIGGER test_hold_start_answer BEFORE UPDATE ON payments FOR EACH STATEMENT EXECUTE FUNCTION test_hold_start_answer()')
    locker = new pg.Client({ connectionString: app().db.url })
    await locker.connect()
  })
  afterEach(async () => {
    await locker.query('SELECT pg_advisory_unlock_all()').catch(() => {})
    await locker.end()
    await sql('DROP SEQUENCE IF EXISTS test_answer_tries')
    await sql('DROP TRIGGER IF EXISTS test_hold_start_answer ON payments')
    await sql('DROP FUNCTION IF EXISTS test_hold_start_answer()')
  })

  const place = async (visitor: Client, phone: string) => {
    const pkg = await createPackage()
    return visitor.post('/api/orders', { packageId: pkg.id, recipientNumber: phone, payerPhone: phone, payerNetwork: 'MTN' })
  }

  it('is answered while the statement is held, with the payment as that statement leaves it; the claimed row was durable before', async () => {
    const visitor = new Client()
    await locker.query('SELECT pg_advisory_lock($1)', [LOCK])
    const placing = place(visitor, '0241234567')
    try {
      const out = await answeredWhileHeld(placing)
      expect(out.status, out.text).to.equal(201)
      const tid = out.body.payment.transactionId as string
      expect(out.body.payment).to.include({ paymentStatus: 'PENDING', message: SIM_PROMPT_MESSAGE, extTransactionId: `SIM-${tid}`, needsCode: null })
      expect(out.body.order).to.include({ paymentStatus: 'PENDING' })
      // Not written yet: the browser heard the gateway's word before it was saved; the row is PENDING and claimed.
      const held = await rowOf(tid)
      expect(held).to.include({ status: 'PENDING', message: null, ext_transaction_id: null })
      expect(held.details).to.have.property('startedAt')
      await locker.query('SELECT pg_advisory_unlock($1)', [LOCK])
      await answerSaved(tid)
      // Once saved, the payment reads as the order's answer said it (the same view from the row).
      const status = await visitor.get(`/api/payment/status/${tid}`)
      expect(status.status, status.text).to.equal(200)
      expect(status.body).to.include({ paymentStatus: 'PENDING', message: SIM_PROMPT_MESSAGE })
      const saved = await rowOf(tid)
      expect(saved).to.include({ status: 'PENDING', message: out.body.payment.message, ext_transaction_id: out.body.payment.extTransactionId })
      expect(saved.details.authorizationUrl ?? null).to.equal(out.body.payment.authorizationUrl)
    } finally {
      await locker.query('SELECT pg_advisory_unlock_all()')
      await placing.catch(() => {})
    }
  })

  it('a payment settled before the held statement runs keeps settlement’s status and message', async () => {
    const visitor = new Client()
    await locker.query('SELECT pg_advisory_lock($1)', [LOCK])
    const placing = place(visitor, '0241234568')
    try {
      const out = await answeredWhileHeld(placing)
      expect(out.status, out.text).to.equal(201)
      const tid = out.body.payment.transactionId as string
      // The payer approves on the simulator's phone while the start's word is still on its way to the row.
      const approved = await visitor.post(`/api/simulator/payments/${tid}/approve`, {})
      expect(approved.status, approved.text).to.equal(200)
      expect(approved.body).to.include({ paymentStatus: 'SUCCESS' })
      const settled = await rowOf(tid)
      await locker.query('SELECT pg_advisory_unlock($1)', [LOCK])
      await answerSaved(tid)
      const after = await rowOf(tid)
      expect(after.status).to.equal('SUCCESS')
      expect(after.message).to.equal(settled.message)
      expect(after.message).to.not.equal(SIM_PROMPT_MESSAGE)
    } finally {
      await locker.query('SELECT pg_advisory_unlock_all()')
      await placing.catch(() => {})
    }
  })

  it('an answer that cannot be written: the order is still answered, the payment stays PENDING and claimed, and is settled later by the gateway’s word', async () => {
    await sql('CREATE SEQUENCE test_answer_tries')
    const visitor = new Client()
    const out = await place(visitor, '0241234569')
    expect(out.status, out.text).to.equal(201)
    const tid = out.body.payment.transactionId as string
    expect(out.body.payment).to.include({ paymentStatus: 'PENDING', message: SIM_PROMPT_MESSAGE })
    // Until the answer's statement was tried and refused (bounded, never timed).
    for (let i = 0; i < 200 && !(await sql<{ is_called: boolean }>('SELECT is_called FROM test_answer_tries'))[0]!.is_called; i++)
      await new Promise((r) => setTimeout(r, 25))
    expect((await sql<{ is_called: boolean }>('SELECT is_called FROM test_answer_tries'))[0]!.is_called).to.equal(true)
    const kept = await rowOf(tid)
    expect(kept).to.include({ status: 'PENDING', message: null, ext_transaction_id: null })
    expect(kept.details).to.have.property('startedAt')
    expect(kept.details).to.not.have.property('authorizationUrl')
    await sql('DROP SEQUENCE test_answer_tries')
    // The server is still up, and the payer's answer settles the payment the one way.
    const approved = await visitor.post(`/api/simulator/payments/${tid}/approve`, {})
    expect(approved.status, approved.text).to.equal(200)
    expect((await rowOf(tid)).status).to.equal('SUCCESS')
  })
})
