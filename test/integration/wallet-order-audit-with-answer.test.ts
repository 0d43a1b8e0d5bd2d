import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { auditHold, takeHeld } from '../../server/services/audit/index.ts'
import { createAgent, createPackage } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { resellerWithKey } from '../helpers/reseller.ts'
import { app, resetDb } from '../helpers/server.ts'
import { statementsSent } from '../helpers/statements.ts'

/**
 * A wallet order's settlement audit entry (PAYMENT_SUCCESS) is held for the answer's read of the order and written by
 * that statement, in the order's transaction (ADR 0068): the same entry, exactly once, committed exactly when the
 * payment is, with no INSERT of its own.
 */
const sql = <T extends object = any>(text: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>
const entriesOf = (tid: string) =>
  sql<{ user_id: number | null; severity: string; ip_address: string | null; details: Record<string, unknown> }>(
    "SELECT user_id, severity, ip_address, details FROM audit_logs WHERE action = 'PAYMENT_SUCCESS' AND resource = 'PAYMENT' AND resource_id = :tid",
    { tid }
  )
const ANSWER_WITH_ENTRY = /^WITH held AS \(INSERT INTO audit_logs\b[\s\S]*\bSELECT \* FROM orders_view WHERE id = \$1$/

describe("a wallet order: settlement's audit entry written by the answer's read (ADR 0068)", function () {
  this.timeout(30_000)
  beforeEach(resetDb)

  it('over the reseller API: one PAYMENT_SUCCESS entry with what settlement says, written by the statement that reads the answer', async () => {
    const { pkg, a, api } = await resellerWithKey(20, 'Audited')
    const { out, sent } = await statementsSent(() =>
      api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112211' }, { 'Idempotency-Key': 'a-1' })
    )
    expect(out.status, out.text).to.equal(201)
    expect(
      sent.filter((s) => /^INSERT INTO audit_logs\b/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    const answer = sent.filter((s) => ANSWER_WITH_ENTRY.test(s))
    expect(answer, sent.join('\n')).to.have.length(1)
    // Inside the order's transaction, before its commit.
    expect(sent.indexOf(answer[0]!), sent.join('\n')).to.be.lessThan(sent.findIndex((s) => /^COMMIT/.test(s)))
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
    expect(sent.filter((s) => ANSWER_WITH_ENTRY.test(s))).to.have.length(1)
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

  it('the hold: kept only inside a transaction and while open, gone with a rollback; once taken, an entry is written at once', async () => {
    const { audit } = app().services
    const entry = (resourceId: string) => ({ action: 'PAYMENT_SUCCESS', resource: 'PAYMENT', resourceId, details: { n: resourceId } })
    const kept = async () =>
      (await sql<{ resource_id: string }>("SELECT resource_id FROM audit_logs WHERE resource = 'PAYMENT' ORDER BY id")).map((r) => r.resource_id)
    // No transaction: never held.
    const loose = auditHold()
    await audit.record(entry('no-transaction'), { auditHold: loose })
    expect(loose.entries).to.deep.equal([])
    expect(await kept()).to.deep.equal(['no-transaction'])
    // Held, then a rollback: nothing of it is kept.
    const rolledBack = auditHold()
    await app()
      .db.sequelize.transaction(async (transaction) => {
        await audit.record(entry('rolled-back'), { transaction, auditHold: rolledBack })
        expect(rolledBack.entries).to.have.length(1)
        throw new Error('roll back')
      })
      .catch(() => {})
    expect(await kept()).to.deep.equal(['no-transaction'])
    // Held, taken (the hold closes), and a later entry in the same transaction written by its own INSERT.
    const hold = auditHold()
    await app().db.sequelize.transaction(async (transaction) => {
      await audit.record(entry('held'), { transaction, auditHold: hold })
      expect(await kept()).to.deep.equal(['no-transaction'])
      const held = takeHeld(hold)
      expect(held).to.have.length(1)
      await audit.record(entry('after'), { transaction, auditHold: hold })
      expect(hold.entries).to.deep.equal([])
    })
    // "held" was taken and never written by anyone: the caller that takes entries writes them (the order's answer does).
    expect(await kept()).to.deep.equal(['no-transaction', 'after'])
  })
})
