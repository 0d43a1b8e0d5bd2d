import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { createAgent, createPackage } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

// A refund of a payment that credited a wallet takes that credit back out of the wallet, once, in
// the refund's transaction, or is refused when the wallet no longer holds it (ADR 0045): the agent
// never has the money both back on the phone and in the wallet.
const sql = async <T extends object = Record<string, unknown>>(text: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>
const count = async (from: string, r: Record<string, unknown> = {}) => Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM ${from}`, r))[0]!.n)
const approve = (tid: string) => new Client().post(`/api/simulator/payments/${tid}/approve`)
const balance = async (agentId: number) =>
  Number((await sql<{ b: string }>('SELECT balance_pesewas AS b FROM wallets WHERE agent_id = :id', { id: agentId }))[0]?.b ?? 0)
const ledgerSum = async (agentId: number) =>
  Number((await sql<{ s: string | null }>('SELECT sum(amount_pesewas) AS s FROM wallet_entries WHERE agent_id = :id', { id: agentId }))[0]!.s ?? 0)
const paymentStatus = async (tid: string) => (await sql<{ status: string }>('SELECT status FROM payments WHERE transaction_id = :tid', { tid }))[0]!.status

async function agentClient() {
  const a = await createAgent()
  const c = new Client()
  await c.login(a.user.email, a.password)
  return { ...a, c }
}

/** A mobile money top-up of `amount` GHS, approved on the simulator: its reference. */
async function toppedUp(c: Client, amount: number, payerPhone: string) {
  const res = await c.post('/api/wallet/topup', { amount, payerPhone, payerNetwork: 'MTN' })
  expect(res.status, res.text).to.equal(201)
  expect((await approve(res.body.transactionId)).body.paymentStatus).to.equal('SUCCESS')
  return res.body.transactionId as string
}

const refund = async (admin: Client, tid: string, reason = 'Asked for the money back') => admin.post(`/api/admin/payments/${tid}/refund`, { reason })

describe('refunds of payments that credited a wallet', () => {
  let pkgId: number
  beforeEach(async () => {
    await resetDb()
    await app().db.models.Package.destroy({ where: {} })
    pkgId = (await createPackage({ network: 'MTN', sizeMb: 1024, priceUserPesewas: 500, priceAgentPesewas: 450 })).id
    app().services.packages.invalidate()
  })

  it('a top-up refunded: the wallet is debited by it with the refund, once; the gateway gives it back; asked again, 409', async () => {
    const { agent, c } = await agentClient()
    const admin = await adminClient()
    const tid = await toppedUp(c, 10, '0241234501')
    expect(await balance(agent.id)).to.equal(1000)

    const res = await refund(admin, tid)
    expect(res.status, res.text).to.equal(201)
    expect(res.body).to.include({ transactionId: tid, amount: 10, status: 'REFUND_PENDING' })
    expect(await balance(agent.id)).to.equal(0)
    const out = await sql<{ type: string; amount_pesewas: string }>(`SELECT type, amount_pesewas FROM wallet_entries WHERE agent_id = :a ORDER BY id`, {
      a: agent.id
    })
    expect(out.map((e) => [e.type, Number(e.amount_pesewas)])).to.deep.equal([
      ['TOPUP', 1000],
      ['ADJUSTMENT', -1000]
    ])
    const [audit] = await sql<{ details: Record<string, unknown> }>(`SELECT details FROM audit_logs WHERE action = 'REFUND_ISSUED' AND resource_id = :tid`, {
      tid
    })
    expect(audit!.details).to.include({ amount: 10, walletDebited: 10, walletBalance: 0 })
    await app().services.queue.drain()
    expect(await paymentStatus(tid)).to.equal('REFUNDED')

    const again = await refund(admin, tid)
    expect(again.status).to.equal(409)
    expect(again.body.error).to.equal('This payment has already been refunded')
    expect(await balance(agent.id)).to.equal(0)
    expect(await count('refunds')).to.equal(1)
    // The agent's statement shows the money leaving the wallet.
    const st = await c.get('/api/wallet/statement')
    expect(st.body.entries[0]).to.include({ type: 'ADJUSTMENT', amount: -10, balanceAfter: 0, transactionId: tid })
  })

  it('a top-up partly spent: the refund is refused with the balance, and nothing is written', async () => {
    const { agent, c } = await agentClient()
    const tid = await toppedUp(c, 10, '0241234502')
    const order = await c.post('/api/orders', { packageId: pkgId, recipientNumber: '0241000001', payFrom: 'wallet' })
    expect(order.status, order.text).to.equal(201)
    const res = await refund(await adminClient(), tid)
    expect(res.status, res.text).to.equal(409)
    expect(res.body.error).to.equal('The wallet holds GHS 5.50, less than the GHS 10.00 this top-up put in: what was spent from it cannot be refunded')
    expect(await balance(agent.id)).to.equal(550)
    expect(await count('refunds')).to.equal(0)
    expect(await count(`audit_logs WHERE action = 'REFUND_ISSUED'`)).to.equal(0)
    expect(await paymentStatus(tid)).to.equal('SUCCESS')
    // Bad input is a 4xx too.
    expect((await refund(await adminClient(), tid, '')).status).to.equal(400)
    expect((await refund(await adminClient(), 'nope')).status).to.equal(404)
  })

  it('two refund requests at once: one refund, one debit', async () => {
    const { agent, c } = await agentClient()
    const admin = await adminClient()
    const tid = await toppedUp(c, 10, '0241234503')
    const answers = await Promise.all([refund(admin, tid), refund(admin, tid), refund(admin, tid)])
    expect(answers.map((a) => a.status).sort()).to.deep.equal([201, 409, 409])
    expect(await count('refunds')).to.equal(1)
    expect(await count(`wallet_entries WHERE type = 'ADJUSTMENT'`)).to.equal(1)
    expect(await balance(agent.id)).to.equal(0)
    expect(await ledgerSum(agent.id)).to.equal(0)
  })

  it('a refund racing a wallet spend of the same money: exactly one of them moves it, and the wallet never goes below zero', async function () {
    this.timeout(60_000)
    const admin = await adminClient()
    const outcomes = new Set<string>()
    for (let round = 0; round < 4; round++) {
      const { agent, c } = await agentClient()
      const tid = await toppedUp(c, 10, `024123451${round}`)
      // Two orders of 4.50 would leave 1.00; the refund needs the whole 10.00.
      const [spend, spend2, back] = await Promise.all([
        c.post('/api/orders', { packageId: pkgId, recipientNumber: '0241000002', payFrom: 'wallet' }),
        c.post('/api/orders', { packageId: pkgId, recipientNumber: '0241000003', payFrom: 'wallet' }),
        refund(admin, tid)
      ])
      const spent = [spend, spend2].filter((r) => r.status === 201).length
      if (back.status === 201) {
        expect(spent).to.equal(0)
        expect([spend.status, spend2.status]).to.deep.equal([402, 402])
        expect(await balance(agent.id)).to.equal(0)
        outcomes.add('refund first')
      } else {
        expect(back.status, back.text).to.equal(409)
        expect(spent).to.be.greaterThan(0)
        expect(await balance(agent.id)).to.equal(1000 - spent * 450)
        expect(await count('refunds WHERE transaction_id = :tid', { tid })).to.equal(0)
        outcomes.add('spend first')
      }
      expect(await ledgerSum(agent.id)).to.equal(await balance(agent.id))
      expect(await balance(agent.id)).to.be.at.least(0)
    }
    expect(outcomes.size).to.be.at.least(1)
  })

  it('a bulk order payment whose lines were written is refused, pointing to the lines; money left in the wallet by a cancelled batch comes back out of it', async () => {
    const { agent, c } = await agentClient()
    const admin = await adminClient()
    const lines = ['0241000001 1GB', '0241000002 1GB'].join('\n')
    const paid = await c.post('/api/bulk', { text: lines, pay: 'momo', payerPhone: '0241234520', payerNetwork: 'MTN' })
    expect(paid.status, paid.text).to.equal(201)
    const tid = paid.body.payment.transactionId as string
    expect((await approve(tid)).body.paymentStatus).to.equal('SUCCESS')
    const refused = await refund(admin, tid)
    expect(refused.status, refused.text).to.equal(409)
    expect(refused.body.error).to.equal(
      `This payment paid bulk order #${paid.body.batch.id}: its lines are orders paid from the wallet. Refund the lines not delivered one by one (Orders, batch #${paid.body.batch.id}); each goes back to the wallet.`
    )
    expect(await count('refunds')).to.equal(0)
    expect(await paymentStatus(tid)).to.equal('SUCCESS')

    // Declined, the batch is cancelled; the money arriving after that stays in the wallet.
    const late = await c.post('/api/bulk', { text: lines, pay: 'momo', payerPhone: '0241234521', payerNetwork: 'MTN' })
    const lateTid = late.body.payment.transactionId as string
    expect((await new Client().post(`/api/simulator/payments/${lateTid}/decline`)).status).to.equal(200)
    await app().services.payments.settle(lateTid, { status: 'SUCCESS', message: 'paid after all', amountPesewas: 900, currency: 'GHS' })
    expect(await balance(agent.id)).to.equal(900)
    const back = await refund(admin, lateTid)
    expect(back.status, back.text).to.equal(201)
    expect(await balance(agent.id)).to.equal(0)
    expect(await ledgerSum(agent.id)).to.equal(0)
  })
})
