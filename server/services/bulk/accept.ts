import type { Sequelize, Transaction } from 'sequelize'
import { toGhs } from '../../lib/money.ts'
import type { AuditService } from '../audit/index.ts'
import type { Actor, Ctx } from '../context.ts'
import type { PackageRow } from '../packages/index.ts'
import { newTransactionId, type PaymentsService } from '../payments/index.ts'
import type { Settings } from '../settings/index.ts'
import { fillTemplate, formatDataSize, type SmsService } from '../sms/index.ts'
import { post } from '../wallet/ledger.ts'
import type { CheckedLine } from './preview.ts'
import { createBulkAcceptQueries, type StoredLine } from './queries-accept.ts'

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

async function insertBatch(
  sequelize: Sequelize,
  input: AcceptInput,
  t: Transaction,
  awaiting?: { transactionId: string; lines: StoredLine[] }
): Promise<number> {
  const totalPesewas = input.lines.reduce((s, l) => s + l.pricePesewas, 0)
  return createBulkAcceptQueries(sequelize).insertBatch(
    {
      agentId: input.actor.agent.id,
      userId: input.actor.id,
      channel: input.channel,
      lineCount: input.lines.length,
      totalPesewas,
      notifySms: input.notifySms,
      status: awaiting ? 'AWAITING_PAYMENT' : 'PAID',
      paymentTransactionId: awaiting?.transactionId ?? null,
      pendingLines: awaiting?.lines ?? null
    },
    t
  )
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
  const q = createBulkAcceptQueries(sequelize)
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
  const orders = await q.insertLineOrders({ userId: payer.userId, agentId: payer.agentId, channel: batch.channel, simulated, batchId }, lines, tids, t)
  await q.insertLinePayments({ email: payer.email, agentId: payer.agentId, userId: payer.userId, batchId, simulated }, orders, t)
  // All lines settled together, set-based: each ends as a single wallet order settled alone would.
  await payments.settleLines({ transactionIds: tids, agentId: payer.agentId, message: `Paid from wallet (bulk order #${batchId})`, settings }, ctx)
  if (batch.notifySms && settings.smsOrderCreatedUser) {
    const template = settings.smsOrderCreatedUser
    await deps.sms.sendMany(
      orders.map((o) => ({
        to: o.recipientNumber,
        message: fillTemplate(template, { dataSize: formatDataSize(o.dataSizeMb), network: o.network, recipientNumber: o.recipientNumber })
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
