import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { toGhs } from '../../lib/money.ts'
import type { AuditService } from '../audit/index.ts'
import type { Actor, Ctx } from '../context.ts'
import type { PackageRow } from '../packages/index.ts'
import type { Quote } from '../pricing/index.ts'
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

/** A checked line as the batch keeps it while it waits for its payment (and as its order is written). */
export interface StoredLine {
  packageId: number
  name: string
  recipient: string
  network: string
  sizeMb: number
  pricePesewas: number
  /** A sub-agent's line: what its parent pays and earns on delivery (absent in lines kept before sub-agents could order in bulk). */
  parent?: Quote['parent']
}

/** Who pays a batch: its agent and the user who placed it. */
export interface Payer {
  agentId: number
  userId: number | null
  email: string | null
}

const storedLines = (input: AcceptInput): StoredLine[] =>
  input.lines.map((l) => {
    const p = input.packageOf(l.packageId!)
    return {
      packageId: p.id,
      name: input.nameOf(p),
      recipient: l.recipient,
      network: p.network,
      sizeMb: p.sizeMb,
      pricePesewas: l.pricePesewas,
      parent: l.parent
    }
  })

const query =
  (sequelize: Sequelize, t: Transaction) =>
  <T extends object>(sql: string, replacements: Record<string, unknown>) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction: t })

async function insertBatch(
  sequelize: Sequelize,
  input: AcceptInput,
  t: Transaction,
  awaiting?: { transactionId: string; lines: StoredLine[] }
): Promise<number> {
  const totalPesewas = input.lines.reduce((s, l) => s + l.pricePesewas, 0)
  const [batch] = await query(sequelize, t)<{ id: number }>(
    `INSERT INTO order_batches (agent_id, user_id, channel, line_count, total_pesewas, notify_sms, status, payment_transaction_id, pending_lines)
     VALUES (:agentId, :userId, :channel, :n, :total, :sms, :status, :tid, CAST(:pending AS jsonb)) RETURNING id`,
    {
      agentId: input.actor.agent.id,
      userId: input.actor.id,
      channel: input.channel,
      n: input.lines.length,
      total: totalPesewas,
      sms: input.notifySms,
      status: awaiting ? 'AWAITING_PAYMENT' : 'PAID',
      tid: awaiting?.transactionId ?? null,
      pending: awaiting ? JSON.stringify(awaiting.lines) : null
    }
  )
  return batch!.id
}

/**
 * The batch's money and lines, in its transaction `t`: ONE wallet debit for the total (the wallet row
 * locked first, so of two batches racing for one balance exactly one passes), the BULK_ORDER_PAID entry,
 * every line as an ordinary order with its wallet payment, all settled together
 * (`payments.settleLines`: commission, audit, delivery job, webhooks in a few multi-row statements)
 * to the end state a single wallet order reaches, and the recipients' texts when asked for.
 */
export async function payLines(
  deps: AcceptDeps,
  batch: { id: number; channel: string; notifySms: boolean; from: 'wallet' | 'momo' },
  payer: Payer,
  lines: StoredLine[],
  settings: Settings,
  ctx: Ctx & { transaction: Transaction }
): Promise<void> {
  const { sequelize, payments } = deps
  const t = ctx.transaction
  const q = query(sequelize, t)
  const batchId = batch.id
  const totalPesewas = lines.reduce((s, l) => s + l.pricePesewas, 0)
  const simulated = payments.isSimulator
  const { balancePesewas } = await post(
    sequelize,
    {
      agentId: payer.agentId,
      type: 'ORDER',
      amountPesewas: -totalPesewas,
      reason: `Bulk order #${batchId}: ${lines.length} lines`,
      actorUserId: payer.userId,
      batchId
    },
    t
  )
  await deps.audit.record(
    {
      action: 'BULK_ORDER_PAID',
      resource: 'BATCH',
      resourceId: batchId,
      severity: 'LOW',
      userId: payer.userId,
      details: {
        agentId: payer.agentId,
        lines: lines.length,
        amount: toGhs(totalPesewas),
        balance: toGhs(balancePesewas),
        channel: batch.channel,
        from: batch.from
      }
    },
    ctx
  )
  const tids = lines.map(() => newTransactionId())
  // One statement for all the lines' orders and one for their payments: a thousand rows in two round trips.
  const orders = await q<{
    id: number
    payment_transaction_id: string
    amount_pesewas: number
    recipient_number: string
    network: string
    data_size_mb: number
  }>(
    `INSERT INTO orders (user_id, agent_id, package_id, package_name, recipient_number, network, data_size_mb, amount_pesewas, payment_status, payment_transaction_id, channel, simulated, batch_id,
                         parent_agent_id, parent_price_pesewas, parent_margin_pesewas)
     SELECT :userId, :agentId, p, n, r, nw, s, a, 'PENDING', tid, :channel, :simulated, :batchId, pa, pp, pm
       FROM unnest(ARRAY[:pkg]::int[], ARRAY[:name]::text[], ARRAY[:rcpt]::text[], ARRAY[:net]::text[], ARRAY[:size]::int[], ARRAY[:amt]::int[], ARRAY[:tid]::text[],
                   ARRAY[:pAgent]::int[], ARRAY[:pPrice]::int[], ARRAY[:pMargin]::int[])
         WITH ORDINALITY AS l(p, n, r, nw, s, a, tid, pa, pp, pm, i)
      ORDER BY i
     RETURNING id, payment_transaction_id, amount_pesewas, recipient_number, network, data_size_mb`,
    {
      userId: payer.userId,
      agentId: payer.agentId,
      channel: batch.channel,
      simulated,
      batchId,
      pkg: lines.map((l) => l.packageId),
      name: lines.map((l) => l.name),
      rcpt: lines.map((l) => l.recipient),
      net: lines.map((l) => l.network),
      size: lines.map((l) => l.sizeMb),
      amt: lines.map((l) => l.pricePesewas),
      tid: tids,
      pAgent: lines.map((l) => l.parent?.agentId ?? null),
      pPrice: lines.map((l) => l.parent?.pricePesewas ?? null),
      pMargin: lines.map((l) => l.parent?.marginPesewas ?? null)
    }
  )
  await q(
    `INSERT INTO payments (transaction_id, purpose, gateway, method, status, amount_pesewas, email, order_id, agent_id, user_id, details, last_checked_at, simulated)
     SELECT tid, 'data', 'wallet', 'wallet', 'PENDING', a, :email, o, :agentId, :userId, jsonb_build_object('batchId', :batchId::int), now(), :simulated
       FROM unnest(ARRAY[:tid]::text[], ARRAY[:amt]::int[], ARRAY[:oid]::int[]) AS l(tid, a, o)`,
    {
      email: payer.email,
      agentId: payer.agentId,
      userId: payer.userId,
      batchId,
      simulated,
      tid: orders.map((o) => o.payment_transaction_id),
      amt: orders.map((o) => o.amount_pesewas),
      oid: orders.map((o) => o.id)
    }
  )
  // All lines settled together, set-based: each ends as a single wallet order settled alone would.
  await payments.settleLines({ transactionIds: tids, agentId: payer.agentId, message: `Paid from wallet (bulk order #${batchId})`, settings }, ctx)
  if (batch.notifySms && settings.smsOrderCreatedUser) {
    const template = settings.smsOrderCreatedUser
    await deps.sms.sendMany(
      orders.map((o) => ({
        to: o.recipient_number,
        message: fillTemplate(template, { dataSize: formatDataSize(o.data_size_mb), network: o.network, recipientNumber: o.recipient_number })
      })),
      { transaction: t }
    )
  }
}

/** Pays a checked batch from the agent's wallet (ADR 0039), all or nothing in one transaction. */
export async function acceptFromWallet(deps: AcceptDeps, input: AcceptInput, ctx: Ctx): Promise<number> {
  const { actor } = input
  return deps.sequelize.transaction(async (t) => {
    const batchId = await insertBatch(deps.sequelize, input, t)
    await payLines(
      deps,
      { id: batchId, channel: input.channel, notifySms: input.notifySms, from: 'wallet' },
      { agentId: actor.agent.id, userId: actor.id, email: actor.email ?? null },
      storedLines(input),
      input.settings,
      { ...ctx, user: actor, transaction: t }
    )
    await input.andThen?.(batchId, t)
    return batchId
  })
}

/**
 * Keeps a checked batch waiting for one mobile money payment of its total (ADR 0039): the batch row
 * with its lines, nothing debited, no order written. Its settlement pays the lines (`onPayment`).
 * Returns the batch and the payment's reference, which the caller starts through `payments.request`.
 */
export async function acceptAwaitingPayment(deps: AcceptDeps, input: AcceptInput): Promise<{ batchId: number; transactionId: string }> {
  const transactionId = newTransactionId()
  const batchId = await deps.sequelize.transaction((t) => insertBatch(deps.sequelize, input, t, { transactionId, lines: storedLines(input) }))
  return { batchId, transactionId }
}
