import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { createAgent, createPackage } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { resellerWithKey } from '../helpers/reseller.ts'
import { app, resetDb } from '../helpers/server.ts'
import { statementsSent } from '../helpers/statements.ts'

/**
 * A wallet order's settlement audit entry (PAYMENT_SUCCESS) is written by the order's own statement, which also returns
 * the answer's orders_view row (ADR 0079): the same entry, exactly once, committed exactly when the payment is, with no
 * INSERT of its own and no read of the answer.
 */
const sql = <T extends object = any>(text: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>
const entriesOf = (tid: string) =>
  sql<{ user_id: number | null; severity: string; ip_address: string | null; details: Record<string, unknown> }>(
    "SELECT user_id, severity, ip_address, details FROM audit_logs WHERE action = 'PAYMENT_SUCCESS' AND resource = 'PAYMENT' AND resource_id = :tid",
    { tid }
  )
const ORDER_WITH_ENTRY = /^WITH o AS \(\s*INSERT INTO orders\b[\s\S]*\bpe AS \(INSERT INTO audit_logs\b[\s\S]*\bAS view__id\b/
const ANSWER_READ = /\bFROM orders_view\b/

describe("a wallet order: settlement's audit entry written by the order's statement, which returns the answer (ADR 0079)", function () {
  this.timeout(30_000)
  beforeEach(resetDb)

  it("over the reseller API: one PAYMENT_SUCCESS entry with what settlement says, written by the order's statement; no read of the answer", async () => {
    const { pkg, a, api } = await resellerWithKey(20, 'Audited')
    const { out, sent } = await statementsSent(() =>
      api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112211' }, { 'Idempotency-Key': 'a-1' })
    )
    expect(out.status, out.text).to.equal(201)
    expect(
      sent.filter((s) => /^INSERT INTO audit_logs\b/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    const placing = sent.filter((s) => ORDER_WITH_ENTRY.test(s))
    expect(placing, sent.join('\n')).to.have.length(1)
    expect(
      sent.filter((s) => ANSWER_READ.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    // The order's statement is its own transaction: the entry is committed exactly with it.
    expect(
      sent.filter((s) => /^(START|COMMIT)\b/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    const [order] = await sql<{ id: number; payment_transaction_id: string }>('SELECT id, payment_transaction_id FROM orders')
    const entries = await entriesOf(order!.payment_transaction_id)
    expect(entries).to.have.length(1)
    expect(entries[0]).to.deep.include({ user_id: a.user.id, severity: 'LOW', ip_address: null })
    expect(entries[0]!.details).to.deep.equal({
      transactionId: order!.payment_transaction_id,
      purpose: 'data',
      amount: 4.5,
      gateway: 'wallet',
      method: 'wallet',
      extTransactionId: null,
      status: 'SUCCESS',
      message: 'Paid from wallet',
      simulated: true,
      orderId: order!.id,
      commissionRecorded: true,
      deliveryQueued: true
    })
  })

  it("the portal's wallet order too; a wallet that does not cover the order keeps no entry, no order and no payment", async () => {
    const pkg = await createPackage({ priceAgentPesewas: 450 })
    const a = await createAgent()
    const admin = await adminClient()
    expect((await admin.post(`/api/wallet/agents/${a.agent.id}/adjust`, { amount: 5, direction: 'CREDIT', reason: 'Test float' })).status).to.equal(200)
    const portal = new Client()
    await portal.login(a.user.email, a.password)
    const { out, sent } = await statementsSent(() => portal.post('/api/orders', { packageId: pkg.id, recipientNumber: '0241112222', payFrom: 'wallet' }))
    expect(out.status, out.text).to.equal(201)
    expect(sent.filter((s) => ORDER_WITH_ENTRY.test(s))).to.have.length(1)
    expect(sent.filter((s) => ANSWER_READ.test(s))).to.deep.equal([])
    expect(
      sent.filter((s) => /^INSERT INTO audit_logs\b/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    expect(await entriesOf(out.body.payment.transactionId)).to.have.length(1)
    // GHS 0.50 left: the next order is refused and leaves nothing behind.
    const refused = await portal.post('/api/orders', { packageId: pkg.id, recipientNumber: '0241112223', payFrom: 'wallet' })
    expect(refused.status, refused.text).to.equal(402)
    const [n] = await sql<{ orders: string; payments: string; entries: string }>(
      `SELECT (SELECT count(*) FROM orders) AS orders, (SELECT count(*) FROM payments) AS payments,
              (SELECT count(*) FROM audit_logs WHERE action = 'PAYMENT_SUCCESS') AS entries`
    )
    expect(n).to.deep.equal({ orders: '1', payments: '1', entries: '1' })
  })
})
