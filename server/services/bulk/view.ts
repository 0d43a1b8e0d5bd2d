import { toGhs } from '../../lib/money.ts'

/** How far a batch's lines have come: each line counts once in queued, delivered or failed; refunded counts failed lines whose money went back. */
export interface BatchCounts {
  queued: number
  delivered: number
  failed: number
  refunded: number
}

/** The counts of many batches in one statement (lists) or of one (its page's poll). */
export const COUNTS_SQL = `SELECT batch_id,
    count(*) FILTER (WHERE delivery_status NOT IN ('DELIVERED','MANUAL','FAILED'))::int AS queued,
    count(*) FILTER (WHERE delivery_status IN ('DELIVERED','MANUAL'))::int AS delivered,
    count(*) FILTER (WHERE delivery_status = 'FAILED')::int AS failed,
    count(*) FILTER (WHERE payment_status = 'REFUNDED')::int AS refunded
  FROM orders_view WHERE batch_id IN (:ids) GROUP BY batch_id`

export interface BatchRow {
  id: number
  agent_id: number
  channel: string
  line_count: number
  total_pesewas: string | number
  notify_sms: boolean
  completed_at: Date | string | null
  created_at: Date | string
  status?: string
  payment_transaction_id?: string | null
  agent_name?: string
  agent_phone?: string
}

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null)

export function presentBatch(b: BatchRow, counts: BatchCounts | undefined) {
  // A batch without orders yet waits for its payment (all queued) or was cancelled (none).
  const c = counts ?? { queued: b.status === 'CANCELLED' ? 0 : b.line_count, delivered: 0, failed: 0, refunded: 0 }
  return {
    id: b.id,
    lines: b.line_count,
    total: toGhs(Number(b.total_pesewas))!,
    channel: b.channel,
    sms: b.notify_sms,
    /** PAID (wallet, or its mobile money payment succeeded), AWAITING_PAYMENT or CANCELLED (that payment failed). */
    status: b.status ?? 'PAID',
    paymentTransactionId: b.payment_transaction_id ?? null,
    counts: { queued: c.queued, delivered: c.delivered, failed: c.failed, refunded: c.refunded },
    done: c.queued === 0,
    completedAt: iso(b.completed_at),
    createdAt: iso(b.created_at)!,
    ...(b.agent_name !== undefined ? { agent: { id: b.agent_id, name: b.agent_name, phone: b.agent_phone ?? null } } : {})
  }
}

export type BatchView = ReturnType<typeof presentBatch>

/** One line of a batch as its page, its results CSV and the API show it. */
export function presentBatchLine(o: Record<string, any>) {
  return {
    orderId: o.id as number,
    recipientNumber: o.recipient_number as string,
    network: o.network as string,
    bundle: o.package_name as string | null,
    dataSizeMB: o.data_size_mb as number,
    amount: toGhs(o.amount_pesewas)!,
    paymentStatus: o.payment_status as string,
    deliveryStatus: o.delivery_status as string,
    reference: (o.delivery_reference ?? null) as string | null,
    error: (o.delivery_error ?? null) as string | null
  }
}

export type BatchLineView = ReturnType<typeof presentBatchLine>
