import { toGhs } from '../../lib/money.ts'
import type { Batch, BatchCounts, BatchLine } from './queries.ts'

export function presentBatch(b: Batch, counts: BatchCounts | undefined) {
  // A batch without orders yet waits for its payment (all queued) or was cancelled (none).
  const c = counts ?? { queued: b.status === 'CANCELLED' ? 0 : b.lineCount, delivered: 0, failed: 0, refunded: 0 }
  return {
    id: b.id,
    lines: b.lineCount,
    total: toGhs(b.totalPesewas)!,
    channel: b.channel,
    sms: b.notifySms,
    /** PAID (wallet, or its mobile money payment succeeded), AWAITING_PAYMENT or CANCELLED (that payment failed). */
    status: b.status,
    paymentTransactionId: b.paymentTransactionId,
    counts: { queued: c.queued, delivered: c.delivered, failed: c.failed, refunded: c.refunded },
    done: c.queued === 0,
    completedAt: b.completedAt ? b.completedAt.toISOString() : null,
    createdAt: b.createdAt.toISOString(),
    ...(b.agent ? { agent: { id: b.agentId, name: b.agent.name, phone: b.agent.phone ?? null } } : {})
  }
}

export type BatchView = ReturnType<typeof presentBatch>

/** One line of a batch as its page, its results CSV and the API show it. */
export function presentBatchLine(o: BatchLine) {
  return {
    orderId: o.id,
    recipientNumber: o.recipientNumber,
    network: o.network,
    bundle: o.packageName,
    dataSizeMB: o.dataSizeMb,
    amount: toGhs(o.amountPesewas)!,
    paymentStatus: o.paymentStatus,
    deliveryStatus: o.deliveryStatus,
    reference: o.deliveryReference,
    error: o.deliveryError
  }
}

export type BatchLineView = ReturnType<typeof presentBatchLine>
