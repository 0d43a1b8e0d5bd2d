import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { createAgent, createOrder } from '../helpers/factories.ts'
import { Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { rejection } from '../helpers/rejection.ts'
import type { AppError } from '../../server/lib/errors.ts'
import type { EarningsEntryView } from '../../server/services/earnings/index.ts'

// ADR 0020: the earnings ledger the shop margins and payouts move through.
const sql = async <T extends object = any>(text: string, r: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(text, { replacements: r, type: QueryTypes.SELECT }) as Promise<T[]>
const post = (input: Parameters<ReturnType<typeof app>['services']['earnings']['post']>[0]) =>
  app().db.sequelize.transaction((t) => app().services.earnings.post(input, t))
/** Payout rows for the ledger's payout_id (a foreign key since migration 210), bare: no transfer is made. */
async function payouts(agentId: number, ids: number[]) {
  const [n] = await sql<{ id: number }>(
    `INSERT INTO payout_numbers (agent_id, network, phone, account_name, provider, recipient_code) VALUES (:agentId, 'MTN', '0241234567', 'Test', 'simulator', 'SIMRCP_test') RETURNING id`,
    { agentId }
  )
  for (const id of ids) {
    await sql(
      `INSERT INTO payouts (id, agent_id, payout_number_id, amount_pesewas, status, reference, provider) VALUES (:id, :agentId, :n, 100, 'QUEUED', :ref, 'simulator') RETURNING id`,
      { id, agentId, n: n!.id, ref: `ledger-test-${id}` }
    )
  }
}
describe('earnings ledger', () => {
  beforeEach(resetDb)

  it('20 concurrent payouts against earnings enough for one: exactly one holds the money, the rest are refused', async function () {
    this.timeout(30_000)
    const a = await createAgent()
    const order = await createOrder({ agentId: a.agent.id, paymentStatus: 'SUCCESS' })
    await post({ agentId: a.agent.id, type: 'MARGIN', amountPesewas: 1000, reason: 'margin', orderId: order.id })
    await payouts(
      a.agent.id,
      Array.from({ length: 20 }, (_, i) => i + 1)
    )
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => post({ agentId: a.agent.id, type: 'PAYOUT', amountPesewas: -800, reason: 'payout', payoutId: i + 1 }))
    )
    expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(1)
    for (const r of results.filter((x) => x.status === 'rejected') as PromiseRejectedResult[]) {
      expect(r.reason).to.include({ status: 402, message: 'Not enough available earnings' })
      // Each refused payout waited for the one that went through and names what it left.
      expect(r.reason.extra).to.deep.equal({ available: 2 })
    }
    expect(await app().services.earnings.balancePesewas(a.agent.id)).to.equal(200)
  })

  it('one margin per order and one return per payout, however often asked; the balance is the ledger sum', async () => {
    const a = await createAgent()
    const order = await createOrder({ agentId: a.agent.id, paymentStatus: 'SUCCESS' })
    const runs = await Promise.all(
      Array.from({ length: 5 }, () => post({ agentId: a.agent.id, type: 'MARGIN', amountPesewas: 300, reason: 'margin', orderId: order.id }))
    )
    expect(runs.filter((r) => r.entry)).to.have.length(1)
    await payouts(a.agent.id, [7])
    await post({ agentId: a.agent.id, type: 'PAYOUT', amountPesewas: -300, reason: 'payout', payoutId: 7 })
    const returns = await Promise.all(
      Array.from({ length: 3 }, () => post({ agentId: a.agent.id, type: 'PAYOUT_RETURN', amountPesewas: 300, reason: 'transfer failed', payoutId: 7 }))
    )
    expect(returns.filter((r) => r.entry)).to.have.length(1)
    const [sum] = await sql<{ s: string }>('SELECT sum(amount_pesewas) AS s FROM earnings_entries WHERE agent_id = :id', { id: a.agent.id })
    expect(Number(sum!.s)).to.equal(300)
    expect(await app().services.earnings.balancePesewas(a.agent.id)).to.equal(300)
  })

  it('a reversal after a payout leaves the balance below zero; the next margin makes it up, and the agent sees it', async () => {
    const a = await createAgent()
    const [o1, o2] = [await createOrder({ agentId: a.agent.id }), await createOrder({ agentId: a.agent.id })]
    await post({ agentId: a.agent.id, type: 'MARGIN', amountPesewas: 500, reason: 'margin', orderId: o1.id })
    await payouts(a.agent.id, [1, 2])
    await post({ agentId: a.agent.id, type: 'PAYOUT', amountPesewas: -500, reason: 'payout', payoutId: 1 })
    await post({ agentId: a.agent.id, type: 'MARGIN_REVERSAL', amountPesewas: -500, reason: 'refund', orderId: o1.id })
    const c = new Client()
    await c.login(a.user.email, a.password)
    let res = await c.get('/api/wallet/earnings')
    expect(res.status, res.text).to.equal(200)
    expect(res.body.available).to.equal(-5)
    const refused = (await rejection(post({ agentId: a.agent.id, type: 'PAYOUT', amountPesewas: -100, reason: 'payout', payoutId: 2 }))) as AppError
    expect(refused.message).to.equal('Not enough available earnings')
    // A balance below zero is shown to the payout form as nothing available, never as a negative amount.
    expect(refused.extra).to.deep.equal({ available: 0 })
    await post({ agentId: a.agent.id, type: 'MARGIN', amountPesewas: 800, reason: 'margin', orderId: o2.id })
    res = await c.get('/api/wallet/earnings')
    expect(res.body.available).to.equal(3)
    expect(res.body.entries.map((e: any) => e.type)).to.deep.equal(['MARGIN', 'MARGIN_REVERSAL', 'PAYOUT', 'MARGIN'])
    expect(res.body.entries.map(({ id, createdAt, ...e }: EarningsEntryView) => e)).to.deep.equal([
      { type: 'MARGIN', amount: 8, balanceAfter: 3, reason: 'margin', orderId: o2.id, payoutId: null, paymentTransactionId: null },
      { type: 'MARGIN_REVERSAL', amount: -5, balanceAfter: -5, reason: 'refund', orderId: o1.id, payoutId: null, paymentTransactionId: null },
      { type: 'PAYOUT', amount: -5, balanceAfter: 0, reason: 'payout', orderId: null, payoutId: 1, paymentTransactionId: null },
      { type: 'MARGIN', amount: 5, balanceAfter: 5, reason: 'margin', orderId: o1.id, payoutId: null, paymentTransactionId: null }
    ])
    // The page asks for as many as it shows, between 1 and 200.
    expect((await c.get('/api/wallet/earnings?limit=1')).body.entries.map((e: EarningsEntryView) => e.type)).to.deep.equal(['MARGIN'])
    expect((await c.get('/api/wallet/earnings?limit=-3')).body.entries).to.have.length(1)
  })

  it('an entry names who made it: the user behind an adjustment, nobody for a margin', async () => {
    const a = await createAgent()
    const order = await createOrder({ agentId: a.agent.id })
    const adjusted = await post({ agentId: a.agent.id, type: 'ADJUSTMENT', amountPesewas: 100, reason: 'opening', actorUserId: a.user.id })
    expect(adjusted.entry).to.include({ actorUserId: a.user.id, orderId: null, payoutId: null, amountPesewas: 100, balanceAfterPesewas: 100 })
    const margin = await post({ agentId: a.agent.id, type: 'MARGIN', amountPesewas: 50, reason: 'margin', orderId: order.id })
    expect(margin.entry).to.include({ actorUserId: null, orderId: order.id, balanceAfterPesewas: 150 })
    expect(margin.balancePesewas).to.equal(150)
  })

  it('entries cannot be edited or deleted', async () => {
    const a = await createAgent()
    await post({ agentId: a.agent.id, type: 'ADJUSTMENT', amountPesewas: 100, reason: 'opening' })
    expect((await rejection(app().db.sequelize.query('UPDATE earnings_entries SET amount_pesewas = 1000'))).message).to.include('cannot be edited')
    expect((await rejection(app().db.sequelize.query('DELETE FROM earnings_entries'))).message).to.include('cannot be deleted')
  })
})
