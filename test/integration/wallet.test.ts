import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { createAgent, createPackage } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { ADMIN, app, resetDb } from '../helpers/server.ts'
import { orderPaymentWith } from '../../server/services/wallet/ledger.ts'
import { AtPhone, ussdAgent } from '../helpers/ussd.ts'
import { bootWithFakePaystack } from '../helpers/fake-paystack.ts'

// The agent wallet ledger, top-ups through the payments service, wallet-paid orders.
const sql = async <T extends object = any>(text: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>
const count = async (from: string, r: Record<string, unknown> = {}) => Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM ${from}`, r))[0]!.n)
const approve = (tid: string) => new Client().post(`/api/simulator/payments/${tid}/approve`)

async function agentClient(over: Record<string, unknown> = {}) {
  const a = await createAgent(over)
  const c = new Client()
  await c.login(a.user.email, a.password)
  return { ...a, c }
}

async function credit(agentId: number, amount: number, reason = 'Opening balance for the test') {
  const admin = await adminClient()
  const res = await admin.post(`/api/wallet/agents/${agentId}/adjust`, { amount, direction: 'CREDIT', reason })
  expect(res.status, res.text).to.equal(200)
  return res.body
}

async function ledgerSum(agentId: number) {
  const [row] = await sql<{ s: string | null }>('SELECT sum(amount_pesewas) AS s FROM wallet_entries WHERE agent_id = :id', { id: agentId })
  return Number(row!.s ?? 0)
}
async function balance(agentId: number) {
  const [row] = await sql<{ b: string }>('SELECT balance_pesewas AS b FROM wallets WHERE agent_id = :id', { id: agentId })
  return Number(row?.b ?? 0)
}

describe('wallet: ledger, concurrency, top-up, wallet orders', () => {
  beforeEach(resetDb)

  it('50 concurrent wallet orders against a balance that covers 30: exactly 30 succeed, balance ends at 0, ledger sums to it', async function () {
    this.timeout(60_000)
    const pkg = await createPackage({ priceAgentPesewas: 450 })
    const a = await createAgent()
    await credit(a.agent.id, 30 * 4.5)
    const actor = await app().services.auth.loadActor(a.user.id)
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        app().services.orders.placeOrder({ packageId: pkg.id, recipientNumber: `02412${String(10000 + i)}`, payFrom: 'wallet' }, { user: actor })
      )
    )
    const ok = results.filter((r) => r.status === 'fulfilled')
    const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[]
    expect(ok).to.have.length(30)
    expect(refused).to.have.length(20)
    for (const r of refused) expect(r.reason).to.include({ status: 402, message: 'Insufficient wallet balance' })
    expect(await balance(a.agent.id)).to.equal(0)
    expect(await ledgerSum(a.agent.id)).to.equal(0)
    // Never below zero: every entry's running balance is >= 0, and they chain without gaps.
    const entries = await sql<{ amount_pesewas: string; balance_after_pesewas: string }>(
      'SELECT amount_pesewas, balance_after_pesewas FROM wallet_entries WHERE agent_id = :id ORDER BY id',
      { id: a.agent.id }
    )
    let running = 0
    for (const e of entries) {
      running += Number(e.amount_pesewas)
      expect(Number(e.balance_after_pesewas)).to.equal(running)
      expect(running).to.be.at.least(0)
    }
    expect(entries).to.have.length(31)
    // Refused orders left nothing behind; paid ones went through settlement like any other payment.
    expect(await count('orders')).to.equal(30)
    expect(await count(`orders WHERE payment_status = 'SUCCESS'`)).to.equal(30)
    expect(await count(`payments WHERE gateway = 'wallet' AND method = 'wallet' AND status = 'SUCCESS'`)).to.equal(30)
    expect(await count(`audit_logs WHERE action = 'PAYMENT_SUCCESS'`)).to.equal(30)
    expect(await count('commissions')).to.equal(30)
    expect(await count('sms_outbox')).to.equal(30)
  })

  it('the web order API pays from the wallet at once; an uncovered order is refused with nothing written', async () => {
    const pkg = await createPackage({ priceAgentPesewas: 450, priceUserPesewas: 500 })
    const { agent, c } = await agentClient()
    const poor = await c.post('/api/orders', { packageId: pkg.id, recipientNumber: '0241234567', payFrom: 'wallet' })
    expect(poor.status).to.equal(402)
    expect(poor.body.error).to.equal('Insufficient wallet balance')
    expect(await count('orders')).to.equal(0)
    await credit(agent.id, 10)
    const res = await c.post('/api/orders', { packageId: pkg.id, recipientNumber: '0241234567', payFrom: 'wallet', amount: 0.01 })
    expect(res.status, res.text).to.equal(201)
    expect(res.body.order).to.include({ paymentStatus: 'SUCCESS', amount: 4.5 })
    expect(res.body.payment).to.include({ paymentStatus: 'SUCCESS', provider: 'wallet' })
    const w = await c.get('/api/wallet')
    expect(w.body.balance).to.equal(5.5)
    // A public buyer has no wallet.
    const pub = await new Client().post('/api/orders', { packageId: pkg.id, recipientNumber: '0241234567', payFrom: 'wallet' })
    expect(pub.status).to.equal(403)
  })

  it('a top-up approved on the simulator, with duplicate callbacks and checks, credits once', async () => {
    const { agent, c } = await agentClient()
    const res = await c.post('/api/wallet/topup', { amount: 20, payerPhone: '0241234567', payerNetwork: 'MTN' })
    expect(res.status, res.text).to.equal(201)
    expect(res.body).to.include({ paymentStatus: 'PENDING', purpose: 'wallet_topup', amount: 20 })
    const tid = res.body.transactionId
    expect(await balance(agent.id)).to.equal(0)
    const first = await approve(tid)
    expect(first.body.paymentStatus).to.equal('SUCCESS')
    const again = await Promise.all([approve(tid), approve(tid), ...Array.from({ length: 8 }, () => c.get(`/api/payment/status/${tid}`))])
    expect(again[0]!.status).to.equal(409)
    await app().services.payments.settle(tid, { status: 'SUCCESS', message: 'late duplicate', amountPesewas: 2000, currency: 'GHS' })
    expect(await balance(agent.id)).to.equal(2000)
    expect(await count(`wallet_entries WHERE type = 'TOPUP'`)).to.equal(1)
    expect(await count(`audit_logs WHERE action = 'PAYMENT_SUCCESS' AND resource_id = :tid`, { tid })).to.equal(1)
    const st = await c.get('/api/wallet/statement')
    expect(st.body.entries).to.have.length(1)
    expect(st.body.entries[0]).to.include({ type: 'TOPUP', amount: 20, balanceAfter: 20, transactionId: tid })
  })

  it('top-up limits come from settings; only active agents may top up', async () => {
    const admin = await adminClient()
    expect((await admin.put('/api/settings', { walletTopupMin: 5, walletTopupMax: 50 })).status).to.equal(200)
    const crossed = await admin.put('/api/settings', { walletTopupMin: 60 })
    expect(crossed.status).to.equal(400)
    expect(crossed.body.error).to.equal('Minimum wallet top-up cannot be more than the maximum')
    const { c } = await agentClient()
    const low = await c.post('/api/wallet/topup', { amount: 4.99, payerPhone: '0241234567', payerNetwork: 'MTN' })
    expect(low.status).to.equal(400)
    expect(low.body.error).to.equal('Top-up amount must be between GH₵5.00 and GH₵50.00')
    expect((await c.post('/api/wallet/topup', { amount: 50.01, payerPhone: '0241234567', payerNetwork: 'MTN' })).status).to.equal(400)
    expect((await c.post('/api/wallet/topup', { amount: 'lots' })).status).to.equal(400)
    const un = await agentClient({ approved: false })
    expect((await un.c.post('/api/wallet/topup', { amount: 10, payerPhone: '0241234567', payerNetwork: 'MTN' })).status).to.equal(403)
    expect(await count('payments')).to.equal(0)
  })

  it('refundOrder credits a wallet order back once, under concurrency; other orders are left alone', async () => {
    const pkg = await createPackage({ priceAgentPesewas: 450 })
    const { agent, c } = await agentClient()
    await credit(agent.id, 4.5)
    const res = await c.post('/api/orders', { packageId: pkg.id, recipientNumber: '0241234567', payFrom: 'wallet' })
    expect(await balance(agent.id)).to.equal(0)
    const outs = await Promise.all(Array.from({ length: 10 }, () => app().services.wallet.refundOrder(res.body.id, 'Delivery failed')))
    expect(outs.filter((o) => o.refunded)).to.have.length(1)
    expect(await balance(agent.id)).to.equal(450)
    expect(await ledgerSum(agent.id)).to.equal(450)
    expect(await count(`audit_logs WHERE action = 'WALLET_REFUNDED'`)).to.equal(1)
    expect((await app().services.wallet.refundOrder(999999, 'x')).refunded).to.equal(false)
  })

  it('admin adjustments need a reason, are audited, never take a wallet below zero; the ledger is append-only', async () => {
    const { agent, c } = await agentClient()
    const admin = await adminClient()
    const noReason = await admin.post(`/api/wallet/agents/${agent.id}/adjust`, { amount: 5, direction: 'CREDIT' })
    expect(noReason.status).to.equal(400)
    expect((await c.post(`/api/wallet/agents/${agent.id}/adjust`, { amount: 5, direction: 'CREDIT', reason: 'self-service' })).status).to.equal(403)
    await credit(agent.id, 5, 'Goodwill credit')
    const over = await admin.post(`/api/wallet/agents/${agent.id}/adjust`, { amount: 5.01, direction: 'DEBIT', reason: 'Correction' })
    expect(over.status).to.equal(402)
    const ok = await admin.post(`/api/wallet/agents/${agent.id}/adjust`, { amount: 2, direction: 'DEBIT', reason: 'Correction' })
    expect(ok.body.balance).to.equal(3)
    expect(await count(`audit_logs WHERE action = 'WALLET_ADJUSTED'`)).to.equal(2)
    expect((await admin.get(`/api/wallet/agents/${agent.id}`)).body.entries).to.have.length(2)
    expect((await admin.get('/api/wallet/liability')).body).to.deep.equal({ total: 3, wallets: 1 })
    expect((await admin.get('/api/wallet/agents/abc')).status).to.equal(404)
    let err: any
    try {
      await app().db.sequelize.query('UPDATE wallet_entries SET amount_pesewas = 99999')
    } catch (e) {
      err = e
    }
    expect(String(err?.message)).to.include('cannot be edited')
  })

  it('statement filters by type and date and downloads as CSV', async () => {
    const pkg = await createPackage({ priceAgentPesewas: 450 })
    const { agent, c } = await agentClient()
    await credit(agent.id, 10)
    const placed = await c.post('/api/orders', { packageId: pkg.id, recipientNumber: '0241234567', payFrom: 'wallet' })
    const orders = await c.get('/api/wallet/statement?type=ORDER')
    expect(orders.body.entries.map((e: any) => e.type)).to.deep.equal(['ORDER'])
    // The entry names the order it paid for; the opening credit names none.
    expect(orders.body.entries[0].orderId).to.equal(placed.body.id)
    expect((await c.get('/api/wallet/statement?type=ADJUSTMENT')).body.entries.map((e: any) => e.orderId)).to.deep.equal([null])
    const today = new Date().toISOString().slice(0, 10)
    expect((await c.get(`/api/wallet/statement?from=${today}&to=${today}`)).body.entries).to.have.length(2)
    expect((await c.get('/api/wallet/statement?to=2000-01-01')).body.entries).to.have.length(0)
    expect((await c.get('/api/wallet/statement?type=BOGUS')).status).to.equal(400)
    expect((await c.get('/api/wallet/statement?from=yesterday')).status).to.equal(400)
    const csv = await c.get('/api/wallet/statement.csv?type=ORDER')
    expect(csv.headers.get('content-type')).to.include('text/csv')
    const lines = csv.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
    expect(lines[0]).to.equal('Date,Type,Amount (GHS),Balance after (GHS),Reason,Order,Transaction ID')
    expect(lines).to.have.length(2)
    expect(lines[1]).to.include(',ORDER,-4.50,5.50,')
  })

  it('USSD: PIN, buy, Wallet ends the dial with the order confirmed and paid; a low balance says so', async () => {
    await app().db.models.Package.destroy({ where: {} })
    await createPackage({ network: 'MTN', sizeMb: 1024, priceUserPesewas: 500, priceAgentPesewas: 450 })
    const { agent, pin } = await ussdAgent({ phone: '0241140001' })
    await credit(agent.id, 5)
    const phone = new AtPhone('+233241140001')
    await phone.dial()
    for (const input of [pin, '1', '1', '1', '2']) await phone.send(input)
    const confirm = await phone.send('0551234567')
    expect(confirm.text).to.equal('Confirm purchase\n1.0GB MTN data\nTo: 0551234567\nPrice: GHS 4.50\n1. Mobile money\n2. Wallet (GHS 5.00)\n0 Back 00 Menu')
    const done = await phone.send('2')
    expect(done.end, done.body).to.equal(true)
    const [order] = await sql<any>('SELECT * FROM orders WHERE agent_id = :id', { id: agent.id })
    expect(order).to.include({ payment_status: 'SUCCESS', channel: 'ussd', amount_pesewas: 450, recipient_number: '0551234567' })
    expect(done.text).to.equal(
      `Order #${order.id} confirmed: 1.0GB MTN to 0551234567, paid from wallet. Balance GHS 0.50. Ref ${order.payment_transaction_id.slice(-8)}`
    )
    expect(done.body.length).to.be.at.most(182)
    expect(await balance(agent.id)).to.equal(50)
    // And the bundle goes out by itself: the delivery job (queued in the payment's transaction) delivers it.
    await app().services.queue.drain()
    const [delivered] = await sql<any>('SELECT delivery_status, delivered FROM orders WHERE id = :id', { id: order.id })
    expect(delivered).to.deep.equal({ delivery_status: 'DELIVERED', delivered: true })

    const again = new AtPhone('+233241140001')
    await again.dial()
    for (const input of [pin, '1', '1', '1', '1']) await again.send(input)
    const low = await again.send('2')
    expect(low.con).to.equal(true)
    expect(low.text).to.match(/^Wallet balance too low\.\nConfirm purchase/)
    expect(await count('orders')).to.equal(1)
  })

  it('top-up limits include their ends; while the platform is closed no top-up starts', async () => {
    const admin = await adminClient()
    expect((await admin.put('/api/settings', { walletTopupMin: 5, walletTopupMax: 50 })).status).to.equal(200)
    const { c } = await agentClient()
    for (const amount of [5, 50]) {
      const res = await c.post('/api/wallet/topup', { amount, payerPhone: '0241234567', payerNetwork: 'MTN' })
      expect(res.status, res.text).to.equal(201)
    }
    expect((await admin.put('/api/settings', { platformOpen: false })).status).to.equal(200)
    const closed = await c.post('/api/wallet/topup', { amount: 10, payerPhone: '0241234567', payerNetwork: 'MTN' })
    expect(closed.status).to.equal(403)
    expect(closed.body.error).to.equal('Purchases are temporarily disabled')
    expect(await count('payments')).to.equal(2)
  })

  it('an adjustment may take the whole balance, names the admin on its entry and its audit entry; a refusal says the balance; an unknown agent is a 404', async () => {
    const { agent } = await agentClient()
    const admin = await adminClient()
    await credit(agent.id, 5, 'Goodwill credit')
    const over = await admin.post(`/api/wallet/agents/${agent.id}/adjust`, { amount: 5.01, direction: 'DEBIT', reason: 'Correction' })
    expect(over.status).to.equal(402)
    expect(over.body).to.deep.equal({ error: 'Insufficient wallet balance', message: 'Insufficient wallet balance', balance: 5 })
    const all = await admin.post(`/api/wallet/agents/${agent.id}/adjust`, { amount: 5, direction: 'DEBIT', reason: 'Closing the wallet' })
    expect(all.status, all.text).to.equal(200)
    expect(all.body.balance).to.equal(0)
    expect(all.body.entry).to.include({ type: 'ADJUSTMENT', amount: -5, balanceAfter: 0, reason: 'Closing the wallet' })
    const [adminUser] = await sql<{ id: number }>('SELECT id FROM users WHERE email = :email', { email: ADMIN.email })
    expect(await sql('SELECT actor_user_id FROM wallet_entries WHERE agent_id = :id ORDER BY id', { id: agent.id })).to.deep.equal([
      { actor_user_id: adminUser!.id },
      { actor_user_id: adminUser!.id }
    ])
    const audits = await sql(`SELECT user_id, severity, details FROM audit_logs WHERE action = 'WALLET_ADJUSTED' ORDER BY id`)
    expect(audits[1]).to.deep.equal({
      user_id: adminUser!.id,
      severity: 'HIGH',
      details: { direction: 'DEBIT', amount: 5, reason: 'Closing the wallet', balance: 0, entryId: all.body.entry.id }
    })
    const missing = await admin.post('/api/wallet/agents/999999/adjust', { amount: 5, direction: 'CREDIT', reason: 'Nobody' })
    expect(missing.status).to.equal(404)
    expect(missing.body.error).to.equal('Agent not found')
  })

  it('the statement pages from the newest: page 2 of 2 holds the oldest entry; an empty statement is one page; a later day shows nothing', async () => {
    const { agent, c } = await agentClient()
    const empty = await c.get('/api/wallet/statement')
    expect(empty.body.pagination).to.deep.equal({ page: 1, limit: 20, total: 0, totalPages: 1 })
    for (const amount of [1, 2, 3]) await credit(agent.id, amount)
    const page2 = await c.get('/api/wallet/statement?limit=2&page=2')
    expect(page2.status, page2.text).to.equal(200)
    expect(page2.body.entries.map((e: any) => e.amount)).to.deep.equal([1])
    expect(page2.body.pagination).to.deep.equal({ page: 2, limit: 2, total: 3, totalPages: 2 })
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
    expect((await c.get(`/api/wallet/statement?from=${tomorrow}`)).body.entries).to.deep.equal([])
    const admin = await adminClient()
    expect((await admin.get('/api/wallet/balances')).body).to.deep.equal({ [String(agent.id)]: 6 })
  })

  it('money moves only by a whole, non-zero number of pesewas; a wallet order only by a positive one', async () => {
    const a = await createAgent()
    const move = (amountPesewas: number) =>
      app().db.sequelize.transaction((t) => app().services.earnings.post({ agentId: a.agent.id, type: 'ADJUSTMENT', amountPesewas, reason: 'x' }, t))
    for (const amountPesewas of [0, 1.5]) {
      const err = await move(amountPesewas).catch((e: Error) => e)
      expect((err as Error).message).to.equal('amount must be a non-zero integer of pesewas')
    }
    // A wallet order's debit is written by the order's own statement: refused before that statement is built.
    for (const amountPesewas of [0, -450, 4.5]) {
      const payment = {
        transactionId: `WALLET-TEST-${amountPesewas}`,
        amountPesewas,
        email: null,
        agentId: a.agent.id,
        userId: null,
        simulated: true,
        actorUserId: null
      }
      const err = (() => {
        try {
          orderPaymentWith(payment, { message: 'Paid from wallet', queue: true, commission: [null, 'PERCENTAGE', amountPesewas], entry: [] })
        } catch (e) {
          return e as Error
        }
      })()
      expect(err?.message).to.equal('a debit is a positive integer of pesewas')
    }
    expect(await count('wallet_entries')).to.equal(0)
    expect(await count('earnings_entries')).to.equal(0)
  })

  it('a refund with no reason reads "Refund", a long one is cut to 300 characters; the entry names who refunded, the audit entry what', async () => {
    const pkg = await createPackage({ priceAgentPesewas: 450 })
    const { agent, c } = await agentClient()
    await credit(agent.id, 9)
    const ids: number[] = []
    for (const n of ['0241234567', '0241234568']) ids.push((await c.post('/api/orders', { packageId: pkg.id, recipientNumber: n, payFrom: 'wallet' })).body.id)
    const [adminUser] = await sql<{ id: number }>('SELECT id FROM users WHERE email = :email', { email: ADMIN.email })
    const actor = await app().services.auth.loadActor(adminUser!.id)
    expect(await app().services.wallet.refundOrder(ids[0]!, '', { user: actor })).to.deep.equal({ refunded: true, amount: 4.5, balance: 4.5 })
    await app().services.wallet.refundOrder(ids[1]!, 'x'.repeat(400))
    const refunds = await sql(`SELECT reason, actor_user_id FROM wallet_entries WHERE type = 'REFUND' ORDER BY id`)
    expect(refunds).to.deep.equal([
      { reason: 'Refund', actor_user_id: adminUser!.id },
      { reason: 'x'.repeat(300), actor_user_id: null }
    ])
    const audits = await sql(`SELECT user_id, resource_id, details FROM audit_logs WHERE action = 'WALLET_REFUNDED' ORDER BY id`)
    expect(audits[0]).to.deep.equal({
      user_id: adminUser!.id,
      resource_id: String(ids[0]),
      details: { agentId: agent.id, amount: 4.5, reason: '', balance: 4.5 }
    })
  })

  it("an admin's refund of a wallet-paid order goes back to the wallet once, through the refund path", async () => {
    const pkg = await createPackage({ priceAgentPesewas: 450 })
    const { agent, c } = await agentClient()
    await credit(agent.id, 4.5)
    const order = await c.post('/api/orders', { packageId: pkg.id, recipientNumber: '0241234567', payFrom: 'wallet' })
    expect(order.status, order.text).to.equal(201)
    // Its delivery failed (set here: the refund rule refuses an order being delivered or delivered).
    await sql(`UPDATE orders SET delivery_status = 'FAILED' WHERE id = :id`, { id: order.body.id })
    const admin = await adminClient()
    const r = await admin.post(`/api/admin/orders/${order.body.id}/refund`, { reason: 'Customer asked' })
    expect(r.status, r.text).to.equal(201)
    await app().services.queue.drain()
    expect(await balance(agent.id)).to.equal(450)
    const [refund] = await sql('SELECT status, ext_refund_id, message FROM refunds')
    expect(refund).to.deep.equal({ status: 'PROCESSED', ext_refund_id: `wallet-${r.body.refundId}`, message: 'Credited back to the wallet' })
    expect(await count(`wallet_entries WHERE type = 'REFUND'`)).to.equal(1)
  })

  it('with a Paystack key a wallet order is real: neither it nor its payment is marked simulated', async function () {
    this.timeout(60_000)
    const { ps, stop } = await bootWithFakePaystack()
    try {
      const pkg = await createPackage({ priceAgentPesewas: 450 })
      const a = await createAgent()
      await credit(a.agent.id, 4.5)
      const c = new Client(ps.url)
      expect((await c.login(a.user.email, a.password)).status).to.equal(200)
      const res = await c.post('/api/orders', { packageId: pkg.id, recipientNumber: '0241234567', payFrom: 'wallet' })
      expect(res.status, res.text).to.equal(201)
      expect(await sql('SELECT simulated FROM orders WHERE id = :id', { id: res.body.id })).to.deep.equal([{ simulated: false }])
      expect(await sql('SELECT simulated FROM payments WHERE order_id = :id', { id: res.body.id })).to.deep.equal([{ simulated: false }])
    } finally {
      await stop()
    }
  })
})
