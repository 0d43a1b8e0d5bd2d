import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import type { Logger } from '../../lib/logger.ts'
import { toGhs } from '../../lib/money.ts'
import type { AuditService } from '../audit.ts'
import type { CommissionsService } from '../commissions.ts'
import type { Ctx } from '../context.ts'
import type { Settings, SettingsService } from '../settings.ts'
import { fillTemplate, formatDataSize, type SmsService } from '../sms.ts'
import { post as postWalletEntry } from '../wallet/ledger.ts'
import { isFinal, type GatewayResult, type PaymentRow } from './provider.ts'

export interface SettleDeps {
  sequelize: Sequelize
  settings: SettingsService
  audit: AuditService
  commissions: CommissionsService
  sms: SmsService
  log: Logger
  /**
   * Told, inside the settlement's transaction, that an order's payment status changed (the reseller
   * API's agent webhooks enqueue their job here). Bound late: the webhooks service is made after payments.
   */
  hooks?: { orderStatusChanged?: (orderId: number, ctx: { transaction: Transaction }) => Promise<void> }
}

export interface SettleOutcome {
  /** True only for the one call that moved the payment out of PENDING/IN_PROGRESS. */
  settled: boolean
  row: PaymentRow | null
}

/**
 * Exactly-once settlement. Whoever arrives first (webhook, callback, status check, Complete Order,
 * the reconcile job) runs the conditional UPDATE ... WHERE status IN ('PENDING','IN_PROGRESS')
 * RETURNING; PostgreSQL lets one transaction win the row, and the effects (order status, commission,
 * audit, SMS, agent fee, AFA registration) run in that same transaction. Everyone else gets no row and
 * does nothing. commissions.order_id and afa_registrations.payment_transaction_id are unique as a
 * second fence.
 */
export function createSettlement(deps: SettleDeps) {
  const { sequelize, log } = deps
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })

  async function load(transactionId: string, transaction?: Transaction): Promise<PaymentRow | null> {
    const [row] = await q<PaymentRow>('SELECT * FROM payments WHERE transaction_id = :tid', { tid: transactionId }, transaction)
    return row ?? null
  }

  /** A non-final word from the gateway: PENDING -> IN_PROGRESS at most, never backwards. */
  async function progress(transactionId: string, result: GatewayResult): Promise<void> {
    const rows = await q<{ order_id: number | null; status: string }>(
      `UPDATE payments SET
         status = CASE WHEN :status = 'IN_PROGRESS' THEN 'IN_PROGRESS' ELSE status END,
         message = COALESCE(:message, message),
         ext_transaction_id = COALESCE(:ext, ext_transaction_id),
         updated_at = now()
       WHERE transaction_id = :tid AND status IN ('PENDING','IN_PROGRESS')
       RETURNING order_id, status`,
      { tid: transactionId, status: result.status, message: result.message || null, ext: result.extId ?? null },
    )
    const row = rows[0]
    if (row?.order_id && row.status === 'IN_PROGRESS') {
      await q(`UPDATE orders SET payment_status = 'IN_PROGRESS', updated_at = now() WHERE id = :id AND payment_status = 'PENDING' RETURNING id`, { id: row.order_id })
    }
  }

  async function effects(p: PaymentRow, ctx: Ctx & { transaction: Transaction }, settings: Settings) {
    const t = ctx.transaction
    const success = p.status === 'SUCCESS'
    const details: Record<string, unknown> = {
      transactionId: p.transaction_id,
      purpose: p.purpose,
      amount: toGhs(p.amount_pesewas),
      gateway: p.gateway,
      method: p.method,
      extTransactionId: p.ext_transaction_id,
      status: p.status,
      message: p.message,
    }

    if (p.purpose === 'data' && p.order_id) {
      const [order] = await q<any>(
        `UPDATE orders SET payment_status = :status, updated_at = now() WHERE id = :id AND payment_status IN ('PENDING','IN_PROGRESS') RETURNING *`,
        { id: p.order_id, status: p.status },
        t,
      )
      details.orderId = p.order_id
      if (order && success) {
        details.commissionRecorded = await deps.commissions.recordForOrder(order, settings, t)
        const vars = { dataSize: formatDataSize(order.data_size_mb), network: order.network, recipientNumber: order.recipient_number }
        if (order.agent_id) {
          const [agent] = await q<{ phone: string }>('SELECT phone FROM agents WHERE id = :id', { id: order.agent_id }, t)
          if (agent && settings.smsOrderCreatedAgent) await deps.sms.send(agent.phone, fillTemplate(settings.smsOrderCreatedAgent, vars), { transaction: t })
        } else if (settings.smsOrderCreatedUser) {
          await deps.sms.send(order.payment_phone_number || order.recipient_number, fillTemplate(settings.smsOrderCreatedUser, vars), { transaction: t })
        }
      }
      if (order?.agent_id) await deps.hooks?.orderStatusChanged?.(order.id, { transaction: t })
    }

    if (p.purpose === 'wallet_topup' && p.agent_id) {
      details.agentId = p.agent_id
      if (success && p.amount_pesewas > 0) {
        // One credit per top-up payment: settlement runs once, and the ledger's unique index fences it again.
        const { entry, balancePesewas } = await postWalletEntry(
          sequelize,
          { agentId: p.agent_id, type: 'TOPUP', amountPesewas: p.amount_pesewas, reason: `Top-up by ${p.method === 'card' ? 'card' : 'mobile money'}`, actorUserId: p.user_id, paymentTransactionId: p.transaction_id },
          t,
        )
        details.walletCredited = !!entry
        details.walletBalance = toGhs(balancePesewas)
      }
    }

    if (p.purpose === 'agent_fee' && p.agent_id) {
      details.agentId = p.agent_id
      // A paid agent is never downgraded by an older attempt; a failure only counts for the attempt on record.
      await q(
        success
          ? `UPDATE agents SET payment_status = 'SUCCESS', payment_transaction_id = :tid, updated_at = now()
             WHERE id = :id AND payment_status IS DISTINCT FROM 'SUCCESS' RETURNING id`
          : `UPDATE agents SET payment_status = :status, updated_at = now()
             WHERE id = :id AND payment_transaction_id = :tid AND payment_status IS DISTINCT FROM 'SUCCESS' RETURNING id`,
        { id: p.agent_id, tid: p.transaction_id, status: p.status },
        t,
      )
    }

    if (p.purpose === 'afa') {
      const form = p.details?.afa as { fullName?: string; ghCard?: string; phone?: string; email?: string } | undefined
      if (p.afa_registration_id) {
        await q('UPDATE afa_registrations SET payment_status = :status, updated_at = now() WHERE id = :id RETURNING id', { id: p.afa_registration_id, status: p.status }, t)
      } else if (success && form?.fullName && form.ghCard && form.phone) {
        // Recorded as soon as the money is in, so a closed browser never loses a paid registration.
        const [reg] = await q<{ id: number }>(
          `INSERT INTO afa_registrations (full_name, gh_card, phone, email, amount_pesewas, payment_status, payment_transaction_id)
           VALUES (:fullName, :ghCard, :phone, :email, :amount, 'SUCCESS', :tid)
           ON CONFLICT (payment_transaction_id) DO NOTHING RETURNING id`,
          { fullName: form.fullName, ghCard: form.ghCard, phone: form.phone, email: form.email ?? null, amount: p.amount_pesewas, tid: p.transaction_id },
          t,
        )
        if (reg) await q('UPDATE payments SET afa_registration_id = :rid WHERE id = :id RETURNING id', { rid: reg.id, id: p.id }, t)
        details.afaRegistrationId = reg?.id ?? null
      }
    }

    await deps.audit.record(
      {
        action: success ? 'PAYMENT_SUCCESS' : 'PAYMENT_FAILED',
        resource: 'PAYMENT',
        resourceId: p.transaction_id,
        severity: success ? 'LOW' : 'MEDIUM',
        userId: p.user_id,
        details,
      },
      { ...ctx, transaction: t },
    )
  }

  /**
   * `opts.settings`: a caller settling inside its own transaction passes settings it read before
   * opening it, so settlement never needs a second pool connection while that transaction holds one.
   */
  async function settle(transactionId: string, result: GatewayResult, ctx: Ctx = {}, opts: { settings?: Settings } = {}): Promise<SettleOutcome> {
    if (!isFinal(result.status)) {
      await progress(transactionId, result)
      return { settled: false, row: await load(transactionId) }
    }
    const before = await load(transactionId, ctx.transaction)
    if (!before) return { settled: false, row: null }
    if (isFinal(before.status)) {
      if (result.status === 'SUCCESS' && before.status !== 'SUCCESS') {
        // Money arrived after we had given up on it: nothing changes automatically, but someone must look.
        log.error({ transactionId, status: before.status, purpose: before.purpose }, 'gateway reports success for a payment already closed: manual review needed')
      }
      return { settled: false, row: before }
    }
    let status = result.status
    let message = result.message
    if (status === 'SUCCESS') {
      const paid = result.amountPesewas
      const currencyOk = !result.currency || result.currency.toUpperCase() === 'GHS'
      if (paid === null || paid === undefined || paid < before.amount_pesewas || !currencyOk) {
        log.error({ transactionId, due: before.amount_pesewas, paid, currency: result.currency }, 'gateway reported success with a wrong amount: payment failed')
        status = 'FAILED'
        message = 'Amount paid does not match the amount due'
      }
    }
    // Read before the transaction: a cache miss inside it would need a second connection from the pool.
    const settings = opts.settings ?? (await deps.settings.get())
    // A caller that already holds a transaction (a wallet-paid order) settles inside it.
    const within = <T>(fn: (t: Transaction) => Promise<T>) => (ctx.transaction ? fn(ctx.transaction) : sequelize.transaction(fn))
    return within(async (t) => {
      const rows = await q<PaymentRow>(
        `UPDATE payments SET status = :status, message = :message, ext_transaction_id = COALESCE(:ext, ext_transaction_id),
           settled_at = now(), updated_at = now()
         WHERE transaction_id = :tid AND status IN ('PENDING','IN_PROGRESS')
         RETURNING *`,
        { tid: transactionId, status, message: message || null, ext: result.extId ?? null },
        t,
      )
      const row = rows[0]
      if (!row) return { settled: false, row: await load(transactionId, t) }
      await effects(row, { ...ctx, transaction: t }, settings)
      log.info({ transactionId, status, purpose: row.purpose }, 'payment settled')
      return { settled: true, row }
    })
  }

  return { settle, progress, load }
}
