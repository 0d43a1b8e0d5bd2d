import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { toGhs } from '../../lib/money.ts'
import type { AuditService } from '../audit/index.ts'
import type { Actor, Ctx } from '../context.ts'
import type { PackageRow } from '../packages/index.ts'
import { newTransactionId, type PaymentsService } from '../payments/index.ts'
import type { Settings } from '../settings/index.ts'
import { fillTemplate, formatDataSize, type SmsService } from '../sms/index.ts'
import { post } from '../wallet/ledger.ts'
import type { CheckedLine } from './preview.ts'

export interface AcceptDeps {
  sequelize: Sequelize
  audit: AuditService
  payments: PaymentsService
  sms: SmsService
}

export interface AcceptInput {
  actor: Actor & { agent: NonNullable<Actor['agent']> }
  lines: CheckedLine[]
  packageOf: (id: number) => PackageRow
  nameOf: (p: PackageRow) => string
  channel: 'web' | 'api'
  notifySms: boolean
  settings: Settings
  /** Runs last in the batch's transaction (the reseller API records its Idempotency-Key there). */
  andThen?: (batchId: number, t: Transaction) => Promise<void>
}

/**
 * Pays a checked batch from the agent's wallet (ADR 0039), all or nothing in one transaction: the
 * batch row, ONE wallet debit for the total (the wallet row locked first, so of two batches racing
 * for one balance exactly one passes and the other writes nothing), every line as an ordinary order
 * with its wallet payment, all settled together (`payments.settleLines`: commission, audit, delivery
 * job, webhooks in a few multi-row statements) to the end state a single wallet order reaches.
 */
export async function acceptFromWallet(deps: AcceptDeps, input: AcceptInput, ctx: Ctx): Promise<number> {
  const { sequelize, payments } = deps
  const { actor, lines, settings } = input
  const totalPesewas = lines.reduce((s, l) => s + l.pricePesewas, 0)
  const simulated = payments.isSimulator
  return sequelize.transaction(async (t) => {
    const q = <T extends object>(sql: string, replacements: Record<string, unknown>) => sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction: t })
    const [batch] = await q<{ id: number }>(
      `INSERT INTO order_batches (agent_id, user_id, channel, line_count, total_pesewas, notify_sms) VALUES (:agentId, :userId, :channel, :n, :total, :sms) RETURNING id`,
      { agentId: actor.agent.id, userId: actor.id, channel: input.channel, n: lines.length, total: totalPesewas, sms: input.notifySms },
    )
    const batchId = batch!.id
    const { balancePesewas } = await post(sequelize, { agentId: actor.agent.id, type: 'ORDER', amountPesewas: -totalPesewas, reason: `Bulk order #${batchId}: ${lines.length} lines`, actorUserId: actor.id, batchId }, t)
    await deps.audit.record(
      { action: 'BULK_ORDER_PAID', resource: 'BATCH', resourceId: batchId, severity: 'LOW', details: { agentId: actor.agent.id, lines: lines.length, amount: toGhs(totalPesewas), balance: toGhs(balancePesewas), channel: input.channel, from: 'wallet' } },
      { ...ctx, user: actor, transaction: t },
    )
    const tids = lines.map(() => newTransactionId())
    const pkgs = lines.map((l) => input.packageOf(l.packageId!))
    // One statement for all the lines' orders and one for their payments: a thousand rows in two round trips.
    const orders = await q<{ id: number; payment_transaction_id: string; amount_pesewas: number; recipient_number: string; network: string; data_size_mb: number }>(
      `INSERT INTO orders (user_id, agent_id, package_id, package_name, recipient_number, network, data_size_mb, amount_pesewas, payment_status, payment_transaction_id, channel, simulated, batch_id)
       SELECT :userId, :agentId, p, n, r, nw, s, a, 'PENDING', tid, :channel, :simulated, :batchId
         FROM unnest(ARRAY[:pkg]::int[], ARRAY[:name]::text[], ARRAY[:rcpt]::text[], ARRAY[:net]::text[], ARRAY[:size]::int[], ARRAY[:amt]::int[], ARRAY[:tid]::text[])
           WITH ORDINALITY AS l(p, n, r, nw, s, a, tid, i)
        ORDER BY i
       RETURNING id, payment_transaction_id, amount_pesewas, recipient_number, network, data_size_mb`,
      {
        userId: actor.id, agentId: actor.agent.id, channel: input.channel, simulated, batchId,
        pkg: pkgs.map((p) => p.id), name: pkgs.map(input.nameOf), rcpt: lines.map((l) => l.recipient), net: pkgs.map((p) => p.network),
        size: pkgs.map((p) => p.sizeMb), amt: lines.map((l) => l.pricePesewas), tid: tids,
      },
    )
    await q(
      `INSERT INTO payments (transaction_id, purpose, gateway, method, status, amount_pesewas, email, order_id, agent_id, user_id, details, last_checked_at, simulated)
       SELECT tid, 'data', 'wallet', 'wallet', 'PENDING', a, :email, o, :agentId, :userId, jsonb_build_object('batchId', :batchId::int), now(), :simulated
         FROM unnest(ARRAY[:tid]::text[], ARRAY[:amt]::int[], ARRAY[:oid]::int[]) AS l(tid, a, o)
`,
      { email: actor.email ?? null, agentId: actor.agent.id, userId: actor.id, batchId, simulated, tid: orders.map((o) => o.payment_transaction_id), amt: orders.map((o) => o.amount_pesewas), oid: orders.map((o) => o.id) },
    )
    // All lines settled together, set-based: each ends as a single wallet order settled alone would.
    await payments.settleLines({ transactionIds: tids, agentId: actor.agent.id, message: `Paid from wallet (bulk order #${batchId})`, settings }, { ...ctx, user: actor, transaction: t })
    if (input.notifySms && settings.smsOrderCreatedUser) {
      const template = settings.smsOrderCreatedUser
      await deps.sms.sendMany(orders.map((o) => ({ to: o.recipient_number, message: fillTemplate(template, { dataSize: formatDataSize(o.data_size_mb), network: o.network, recipientNumber: o.recipient_number }) })), { transaction: t })
    }
    await input.andThen?.(batchId, t)
    return batchId
  })
}
