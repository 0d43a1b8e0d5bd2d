import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { reconcilePayments } from '../../jobs/reconcile.ts'
import { createLogger } from '../../server/lib/logger.ts'
import { onFakePaystack, paystackOrder } from '../helpers/instance.ts'
import { app } from '../helpers/server.ts'

/**
 * The gateway's answer to a web order's charge is committed without waiting for the WAL flush (ADR
 * 0046). A crash of PostgreSQL can lose it; what is left is the order and its payment as their own,
 * flushed commit wrote them before the prompt went out: pending and claimed for its start. These
 * tests put a payment in exactly that state after a real charge and show that reconciliation, asking
 * Paystack (a local fake speaking its protocol) by the reference, ends it the way the payer did,
 * once, without a second prompt.
 */
describe('money safety: the gateway answer to a charge lost in a crash', function () {
  this.timeout(60_000)
  const on = onFakePaystack('sk_test_x', { PAYSTACK_TIMEOUT_MS: 1000 })
  const sql = async <T extends object = any>(text: string, replacements: Record<string, unknown> = {}) =>
    app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT })
  const reconcile = () => reconcilePayments({ services: on.ps().services, log: createLogger('silent') })

  /** A visitor's mobile-money order on Paystack; the answer (IN_PROGRESS, Paystack's message) recorded. */
  async function order() {
    const { id, tid, answer } = await paystackOrder(on.ps())
    expect(answer.payment.paymentStatus).to.equal('IN_PROGRESS')
    return { orderId: id, tid }
  }

  /**
   * The rows as the order's own commit left them, as if the answer's commit never reached the disk;
   * then 90 seconds pass (past the minute reconciliation leaves a payment to its webhook).
   */
  async function loseTheAnswer(orderId: number, tid: string) {
    await sql(
      `WITH p AS (UPDATE payments SET status = 'PENDING', ext_transaction_id = NULL, message = NULL,
                    details = details - 'authorizationUrl' - 'unclear' - 'needs',
                    created_at = created_at - interval '90 seconds', last_checked_at = last_checked_at - interval '90 seconds'
                  WHERE transaction_id = :tid RETURNING id)
       UPDATE orders SET payment_status = 'PENDING' WHERE id = :orderId RETURNING id`,
      { tid, orderId }
    )
    const [row] = await sql<{ status: string; claimed: boolean }>(`SELECT status, details ? 'startedAt' AS claimed FROM payments WHERE transaction_id = :tid`, {
      tid
    })
    expect(row).to.deep.equal({ status: 'PENDING', claimed: true })
  }

  const state = async (orderId: number, tid: string) =>
    (
      await sql<{ payment: string; order: string; audits: string }>(
        `SELECT (SELECT status FROM payments WHERE transaction_id = :tid) AS payment,
                (SELECT payment_status FROM orders WHERE id = :orderId) AS order,
                (SELECT count(*) FROM audit_logs WHERE action IN ('PAYMENT_SUCCESS', 'PAYMENT_FAILED') AND resource_id = :tid)::text AS audits`,
        { tid, orderId }
      )
    )[0]!
  const charges = (tid: string) => on.fake().requests.filter((r) => r.path === '/charge' && String(r.body?.reference) === tid).length

  it('the payer approved: reconciliation settles it SUCCESS once, with its order, and no second prompt is sent', async () => {
    const { orderId, tid } = await order()
    await loseTheAnswer(orderId, tid)
    on.fake().complete(tid, 'success')
    await reconcile()
    expect(await state(orderId, tid)).to.deep.equal({ payment: 'SUCCESS', order: 'SUCCESS', audits: '1' })
    await reconcile()
    expect(await state(orderId, tid)).to.deep.equal({ payment: 'SUCCESS', order: 'SUCCESS', audits: '1' })
    expect(charges(tid)).to.equal(1)
  })

  it('the payer declined: reconciliation fails it with its order', async () => {
    const { orderId, tid } = await order()
    await loseTheAnswer(orderId, tid)
    on.fake().complete(tid, 'failed')
    await reconcile()
    expect(await state(orderId, tid)).to.deep.equal({ payment: 'FAILED', order: 'FAILED', audits: '1' })
    expect(charges(tid)).to.equal(1)
  })

  it('the payer has not answered yet: the question gives back what the lost answer said (IN_PROGRESS), asked again, never charged twice', async () => {
    const { orderId, tid } = await order()
    await loseTheAnswer(orderId, tid)
    await reconcile()
    expect(await state(orderId, tid)).to.deep.equal({ payment: 'IN_PROGRESS', order: 'IN_PROGRESS', audits: '0' })
    expect(on.fake().requests.filter((r) => r.path === `/transaction/verify/${tid}`)).to.have.length(1)
    expect(charges(tid)).to.equal(1)
    // The payer approves later: the next question settles it.
    on.fake().complete(tid, 'success')
    await sql(`UPDATE payments SET last_checked_at = now() - interval '1 minute' WHERE transaction_id = :tid RETURNING id`, { tid })
    await reconcile()
    expect(await state(orderId, tid)).to.deep.equal({ payment: 'SUCCESS', order: 'SUCCESS', audits: '1' })
  })
})
