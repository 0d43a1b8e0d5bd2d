import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { SIM_PROMPT_MESSAGE } from '../../server/services/payments/simulator.ts'
import { createAgent } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { onFakePaystack } from '../helpers/instance.ts'
import { app, resetDb } from '../helpers/server.ts'
import { checkerWithStock } from '../helpers/vouchers.ts'

// What settlement leaves behind for each purpose, read where it lands (the order, the wallet, the
// agent, the registration, the refunds, the texts, the audit entry): the effects a test that only
// looks at the payment's status would let change unseen. The database is emptied once (and once more
// by the Paystack block's set-up): each test makes its own payments and reads only their rows.
const sql = async <T extends object = any>(text: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>
const one = async <T extends object = any>(text: string, replacements: Record<string, unknown> = {}) => (await sql<T>(text, replacements))[0]!
const mtn1gb = async () => (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number
const payments = () => app().services.payments
const orderStatus = async (id: number) => (await one<{ s: string }>('SELECT payment_status AS s FROM orders WHERE id = :id', { id })).s
const auditOf = async (tid: string, action = 'PAYMENT_SUCCESS') =>
  one<{ severity: string; details: Record<string, any> }>('SELECT severity, details FROM audit_logs WHERE action = :action AND resource_id = :tid', {
    action,
    tid
  })
const refundsOf = async (tid: string) => Number((await one<{ n: string }>('SELECT count(*) AS n FROM refunds WHERE transaction_id = :tid', { tid })).n)

const approve = (tid: string) => new Client().post(`/api/simulator/payments/${tid}/approve`)
/** The jobs an order's settlement left: its delivery jobs' texts, and how many texts have a job of their own. */
async function jobsFor(orderId: number) {
  const jobs = await sql<{ task: string; payload: any }>(
    `SELECT t.identifier AS task, j.payload FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id`
  )
  const delivery = jobs.filter((j) => j.task === 'delivery.send' && Number(j.payload.orderId) === orderId).map((j) => j.payload.sms ?? [])
  return { delivery, sms: jobs.filter((j) => j.task === 'sms.send').length }
}
async function topup(c: Client, body: Record<string, unknown>) {
  const res = await c.post('/api/wallet/topup', body)
  expect(res.status, res.text).to.equal(201)
  return res.body.transactionId as string
}

async function agentClient(over: Record<string, unknown> = {}) {
  const a = await createAgent(over)
  const c = new Client()
  expect((await c.login(a.user.email, a.password)).status).to.equal(200)
  return { ...a, c }
}

/** A visitor's data order paid by mobile money from `payerPhone`: the order, its payment's reference and the payer's browser. */
async function visitorOrder(payerPhone: string, payerNetwork = 'MTN') {
  const payer = new Client()
  const res = await payer.post('/api/orders', { packageId: await mtn1gb(), recipientNumber: '0201112222', payerPhone, payerNetwork })
  expect(res.status, res.text).to.equal(201)
  return { id: res.body.id as number, tid: res.body.payment.transactionId as string, payer }
}

describe('settlement effects', function () {
  this.timeout(30_000)
  before(resetDb)

  describe('progress', () => {
    it("a gateway's pending word writes its message and leaves the order PENDING", async () => {
      // ...0001: the charge start timed out, so the payment waits as PENDING with the start's message.
      const o = await visitorOrder('0241230001')
      expect(await orderStatus(o.id)).to.equal('PENDING')
      const st = await o.payer.get(`/api/payment/status/${o.tid}`)
      expect(st.body).to.include({ paymentStatus: 'PENDING', message: SIM_PROMPT_MESSAGE })
      expect(await orderStatus(o.id)).to.equal('PENDING')
    })

    it('a word that says nothing of a voucher keeps the voucher asked for', async () => {
      const o = await visitorOrder('0501230011', 'TELECEL')
      expect((await o.payer.get(`/api/payment/status/${o.tid}`)).body).to.include({ paymentStatus: 'IN_PROGRESS', needsCode: 'otp' })
      const sent = await o.payer.post(`/api/payment/${o.tid}/code`, { code: '123456' })
      expect(sent.status, sent.text).to.equal(200)
    })
  })

  describe('progress at Paystack', () => {
    // Its own database from here on: the block's set-up empties it.
    const { fake, ps } = onFakePaystack('sk_test_x')

    it("a word that the payer is approving moves the payment and its order to IN_PROGRESS, with Paystack's message", async () => {
      // A 502 at charge start: the charge reached Paystack, but the payment waits as PENDING until it says more.
      fake().trouble({ kind: '502' })
      const payer = new Client(ps().url)
      const res = await payer.post('/api/orders', { packageId: await mtn1gb(), recipientNumber: '0201112222', payerPhone: '0241234551', payerNetwork: 'MTN' })
      expect(res.status, res.text).to.equal(201)
      const tid = res.body.payment.transactionId as string
      expect(res.body.payment.paymentStatus).to.equal('PENDING')
      expect(await orderStatus(res.body.id)).to.equal('PENDING')
      // Paystack asks for 10 s between checks of a charge.
      await sql(`UPDATE payments SET last_checked_at = now() - interval '1 minute' WHERE transaction_id = :tid RETURNING id`, { tid })
      const st = await payer.get(`/api/payment/status/${tid}`)
      expect(st.body).to.include({ paymentStatus: 'IN_PROGRESS', message: 'Please complete authorization process on your mobile phone' })
      expect(await orderStatus(res.body.id)).to.equal('IN_PROGRESS')
    })
  })

  describe('texts', () => {
    it("an agent's order settled with nobody signed in texts the agent's phone, sent with the order's delivery", async () => {
      const { agent, c } = await agentClient()
      const res = await c.post('/api/orders', { packageId: await mtn1gb(), recipientNumber: '0241000009', payerPhone: '0241234509', payerNetwork: 'MTN' })
      expect(res.status, res.text).to.equal(201)
      expect((await approve(res.body.payment.transactionId)).status).to.equal(200)
      const texts = await sql<{ id: string; message: string }>('SELECT id, message FROM sms_outbox WHERE to_phone = :p', { p: agent.phone })
      expect(texts.map((t) => t.message)).to.deep.equal(['Agent order: 1.0GB MTN data to 0241000009 has been received.'])
      // No job of its own, nor a delivery job (ADR 0063): handed to the delivery pump, sent with the delivery.
      expect(await jobsFor(res.body.id)).to.deep.equal({ delivery: [], sms: 0 })
      await app().services.queue.drain()
      expect(await sql('SELECT status FROM sms_outbox WHERE id = :id', { id: texts[0]!.id })).to.deep.equal([{ status: 'SENT' }])
    })
  })

  describe('wallet top-ups and bulk payments', () => {
    it('a top-up credits the wallet once with a reason naming its method; a declined one credits nothing', async () => {
      const { c } = await agentClient()
      const momo = await topup(c, { amount: 10, payerPhone: '0241234531', payerNetwork: 'MTN' })
      expect((await approve(momo)).status).to.equal(200)
      const card = await topup(c, { amount: 5, method: 'card' })
      expect((await approve(card)).status).to.equal(200)
      const declined = await topup(c, { amount: 7, payerPhone: '0241234532', payerNetwork: 'MTN' })
      expect((await new Client().post(`/api/simulator/payments/${declined}/decline`)).status).to.equal(200)
      const st = await c.get('/api/wallet/statement')
      expect(st.body.entries.map((e: any) => [e.transactionId, e.type, e.amount, e.reason]).reverse()).to.deep.equal([
        [momo, 'TOPUP', 10, 'Top-up by mobile money'],
        [card, 'TOPUP', 5, 'Top-up by card']
      ])
      expect((await auditOf(momo)).details).to.include({ walletCredited: true, walletBalance: 10 })
      expect((await auditOf(declined, 'PAYMENT_FAILED')).details).to.not.have.property('walletCredited')
    })

    it("a bulk order's payment lands in the wallet as a bulk order payment", async () => {
      const { c } = await agentClient()
      const res = await c.post('/api/bulk', { text: '0241000011 1GB', pay: 'momo', payerPhone: '0241234533', payerNetwork: 'MTN' })
      expect(res.status, res.text).to.equal(201)
      const tid = res.body.payment.transactionId as string
      expect((await approve(tid)).status).to.equal(200)
      const st = await c.get('/api/wallet/statement')
      expect(st.body.entries.filter((e: any) => e.type === 'TOPUP').map((e: any) => [e.transactionId, e.reason])).to.deep.equal([
        [tid, 'Bulk order payment by mobile money']
      ])
    })
  })

  describe("the agent's fee", () => {
    it('paid by a second attempt, then by the first late: the agent stays paid by the second and the late money goes back', async () => {
      const admin = await adminClient()
      expect((await admin.put('/api/settings', { agentRegistrationFee: 25 })).status).to.equal(200)
      const { agent, c } = await agentClient({ paymentStatus: 'PENDING', approved: false })
      const request = async (phone: string) => {
        const res = await c.post(`/api/agents/${agent.id}/payment/request`, { phone_number: phone, network: 'MTN' })
        expect(res.status, res.text).to.equal(200)
        return res.body.transactionId as string
      }
      // ...0003: the payer may still approve after the prompt expired.
      const first = await request('0551230003')
      await payments().settle(first, { status: 'EXPIRED', message: 'Payment expired' })
      const second = await request('0551234568')
      expect((await approve(second)).status).to.equal(200)
      const paidBy = async () => one('SELECT payment_status, payment_transaction_id FROM agents WHERE id = :id', { id: agent.id })
      expect(await paidBy()).to.deep.equal({ payment_status: 'SUCCESS', payment_transaction_id: second })
      expect((await approve(first)).status).to.equal(200)
      expect(await paidBy()).to.deep.equal({ payment_status: 'SUCCESS', payment_transaction_id: second })
      expect([await refundsOf(first), await refundsOf(second)]).to.deep.equal([1, 0])
    })
  })

  describe('AFA', () => {
    it('a paid registration is recorded from the form on the payment and linked to it', async () => {
      await app().services.settings.update({ afaRegistrationFee: 12.5 }, {})
      const payer = new Client()
      const form = { fullName: 'Yaw Boateng', ghCard: 'GHA-000111222-3', phone: '0241112299', email: 'yaw@example.com' }
      const pay = await payer.post('/api/payment/request', { type: 'afa_registration', ...form, payerPhone: '0241112299', payerNetwork: 'MTN' })
      expect(pay.status, pay.text).to.equal(200)
      const tid = pay.body.transactionId as string
      expect((await approve(tid)).status).to.equal(200)
      const regs = await sql<{ id: number; full_name: string; amount_pesewas: number }>(
        'SELECT id, full_name, amount_pesewas FROM afa_registrations WHERE payment_transaction_id = :tid',
        { tid }
      )
      expect(regs.map((r) => [r.full_name, Number(r.amount_pesewas)])).to.deep.equal([['Yaw Boateng', 1250]])
      const back = await payer.get(`/api/webhooks/paystack?reference=${tid}`)
      expect(back.body).to.include({ paymentStatus: 'SUCCESS', afaId: regs[0]!.id })
    })
  })

  describe('checkers', () => {
    it('a paid checker with no card left goes back in full; the one sold is kept', async () => {
      const productId = await checkerWithStock(await adminClient(), 1)
      const tids: string[] = []
      for (const phone of ['0241234541', '0241234542']) {
        tids.push((await app().services.vouchers.buy({ productId, quantity: 1, payerPhone: phone, payerNetwork: 'MTN' }, {})).transactionId)
      }
      for (const tid of tids) await payments().settle(tid, { status: 'SUCCESS', message: 'Approved', amountPesewas: 2000, currency: 'GHS' })
      expect([await refundsOf(tids[0]!), await refundsOf(tids[1]!)]).to.deep.equal([0, 1])
    })
  })

  describe('the audit entry', () => {
    it('a late success is audited as late, with whether it was honoured', async () => {
      const o = await visitorOrder('0241230003')
      await payments().settle(o.tid, { status: 'EXPIRED', message: 'Payment expired' })
      expect((await approve(o.tid)).status).to.equal(200)
      const entry = await auditOf(o.tid)
      expect(entry.severity).to.equal('HIGH')
      expect(entry.details).to.include({ late: true, honoured: true })
    })
  })
})
