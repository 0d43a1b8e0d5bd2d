import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import type { Running } from '../../server/index.ts'
import { type FakePaystack, startFakePaystack } from './fake-paystack.ts'
import { Client } from './http.ts'
import { bootOnPaystack, postPaystackWebhook } from './instance.ts'
import { ADMIN, app, resetDb } from './server.ts'

/**
 * An app instance on Paystack (a local fake speaking its protocol), on the test database, for the describe that calls
 * this: started before its tests, reset before each, stopped after them; after each test every charge Paystack
 * received must carry an e-mail a strict check accepts. The money-safety tests' steps come with it.
 */
export function paystackShop() {
  let fake: FakePaystack
  let ps: Running
  // The payer's browser: a payment's status and voucher open only for the browser that started it.
  let payerBrowser: Client | undefined
  const client = () => (payerBrowser ??= new Client(ps.url))
  const sql = async <T extends object = any>(text: string, replacements: Record<string, unknown> = {}) =>
    app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT })
  const count = async (from: string, replacements: Record<string, unknown> = {}) =>
    Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM ${from}`, replacements))[0]!.n)
  const mtn1gb = async () => (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number
  const postWebhook = (body: string, signature?: string) => postPaystackWebhook(ps, body, signature)
  /** Lets the next status check through at once (Paystack asks for 10 s between charge checks). */
  const allowCheck = (tid: string) => sql(`UPDATE payments SET last_checked_at = now() - interval '1 minute' WHERE transaction_id = :tid RETURNING id`, { tid })
  const payment = async (tid: string) => (await ps.services.payments.load(tid))!
  const admin = async () => {
    const c = new Client(ps.url)
    expect((await c.login(ADMIN.email, ADMIN.password)).status).to.equal(200)
    return c
  }
  const order = async (over: Record<string, unknown> = {}) => {
    const res = await client().post('/api/orders', {
      packageId: await mtn1gb(),
      recipientNumber: '0201112222',
      payerPhone: '0241234567',
      payerNetwork: 'MTN',
      ...over
    })
    expect(res.status, res.text).to.equal(201)
    return res.body as { id: number; payment: any }
  }
  const paid = async () => {
    const o = await order()
    const tid = o.payment.transactionId as string
    fake.complete(tid, 'success')
    const { body, signature } = fake.webhook(tid)
    expect((await postWebhook(body, signature)).status).to.equal(200)
    expect((await payment(tid)).status).to.equal('SUCCESS')
    return { ...o, tid }
  }
  const STRICT_EMAIL = /^[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/i

  before(async () => {
    fake = await startFakePaystack('sk_test_x')
    ps = await bootOnPaystack(fake, { PAYSTACK_TIMEOUT_MS: 1000 })
  })
  after(async () => {
    await ps?.stop()
    await fake?.close()
  })
  beforeEach(async () => {
    payerBrowser = undefined
    await resetDb()
    ps.services.settings.invalidate()
    fake.requests.length = 0
    fake.txns.clear()
    fake.refunds.length = 0
    fake.refundMode = 'processed'
    fake.otpProviders.clear()
    fake.trouble(null)
    fake.maxPerPage = 100
  })
  afterEach(() => {
    // Every charge Paystack received carried an e-mail a strict check accepts.
    for (const r of fake.requests.filter((x) => x.path === '/charge')) expect(r.body.email).to.match(STRICT_EMAIL)
  })

  return {
    get fake() {
      return fake
    },
    get ps() {
      return ps
    },
    client,
    sql,
    count,
    mtn1gb,
    postWebhook,
    allowCheck,
    payment,
    admin,
    order,
    paid
  }
}
