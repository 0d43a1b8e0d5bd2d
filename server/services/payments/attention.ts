import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { badRequest, notFound } from '../../lib/errors.ts'
import { ghsText, toGhs } from '../../lib/money.ts'
import type { Ctx } from '../context.ts'

/** Kinds of things about money an admin must see (ADR 0013). */
export type IssueKind =
  | 'late_success'
  | 'wrong_amount'
  | 'overpaid'
  | 'reversal'
  | 'dispute'
  | 'unclear_start'
  | 'recon_mismatch'
  // Payouts: a transfer the code cannot decide, refused, or waiting for an OTP.
  | 'payout_mismatch'
  | 'payout_unclear'
  | 'payout_refused'
  | 'payout_otp'
  // Result-checker vouchers: a paid purchase the stock could not (fully) supply, refunded automatically.
  | 'out_of_stock'

export interface IssueNote {
  kind: IssueKind
  key: string
  transactionId?: string | null
  summary: string
  actionTaken?: string | null
  details?: Record<string, unknown>
}

export interface AttentionItem {
  type: 'issue' | 'refund' | 'event'
  id: number
  kind: string
  transactionId: string | null
  summary: string
  actionTaken: string | null
  /** What the admin can do here. */
  actions: ('resolve' | 'retry_refund')[]
  details: unknown
  createdAt: string
}

/**
 * "Payments needing attention": open issues (late successes, wrong amounts, reversals, disputes,
 * reconciliation mismatches), refunds not yet processed, and signed gateway events we did not handle.
 */
export function createAttention({ sequelize }: { sequelize: Sequelize }) {
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })

  /** Records (or refreshes) one issue; the same (kind, key) is one row however often it is seen. */
  async function note(n: IssueNote, transaction?: Transaction): Promise<void> {
    await q(
      `INSERT INTO payment_issues (kind, key, transaction_id, summary, action_taken, details)
       VALUES (:kind, :key, :tid, :summary, :action, CAST(:details AS jsonb))
       ON CONFLICT (kind, key) DO UPDATE SET summary = EXCLUDED.summary, action_taken = COALESCE(EXCLUDED.action_taken, payment_issues.action_taken),
         details = payment_issues.details || EXCLUDED.details, updated_at = now()
       RETURNING id`,
      {
        kind: n.kind,
        key: n.key,
        tid: n.transactionId ?? null,
        summary: n.summary.slice(0, 500),
        action: n.actionTaken ?? null,
        details: JSON.stringify(n.details ?? {})
      },
      transaction
    )
  }

  async function list(): Promise<AttentionItem[]> {
    const issues = await q<any>(
      `SELECT id, kind, transaction_id, summary, action_taken, details, created_at FROM payment_issues WHERE resolved_at IS NULL ORDER BY created_at DESC LIMIT 500`,
      {}
    )
    const refunds = await q<any>(
      `SELECT id, kind, transaction_id, amount_pesewas, reason, status, message, gateway, created_at FROM refunds
       WHERE status <> 'PROCESSED' ORDER BY created_at DESC LIMIT 500`,
      {}
    )
    const events = await q<any>(
      `SELECT id, event, reference, note, payload, received_count, created_at FROM gateway_events WHERE handled = false ORDER BY created_at DESC LIMIT 500`,
      {}
    )
    const items: AttentionItem[] = [
      ...issues.map((r) => ({
        type: 'issue' as const,
        id: r.id,
        kind: r.kind,
        transactionId: r.transaction_id,
        summary: r.summary,
        actionTaken: r.action_taken,
        actions: ['resolve' as const],
        details: r.details,
        createdAt: new Date(r.created_at).toISOString()
      })),
      ...refunds.map((r) => ({
        type: 'refund' as const,
        id: r.id,
        kind: r.status === 'FAILED' ? 'refund_failed' : 'refund_in_flight',
        transactionId: r.transaction_id,
        summary: `${r.kind === 'excess' ? 'Refund of the overpayment' : 'Refund'} of ${ghsText(r.amount_pesewas)}: ${r.reason}`,
        actionTaken: r.status === 'FAILED' ? `Refund failed: ${r.message ?? 'refused by the gateway'}` : `Refund ${r.status.toLowerCase()} with ${r.gateway}`,
        actions: r.status === 'FAILED' ? ['retry_refund' as const] : [],
        details: { amount: toGhs(r.amount_pesewas), status: r.status, message: r.message },
        createdAt: new Date(r.created_at).toISOString()
      })),
      ...events.map((r) => ({
        type: 'event' as const,
        id: r.id,
        kind: 'unhandled_event',
        transactionId: r.reference,
        summary: `Gateway event ${r.event}${r.reference ? ` for ${r.reference}` : ''}${r.received_count > 1 ? ` (received ${r.received_count} times)` : ''}`,
        actionTaken: r.note ?? 'Stored, nothing changed',
        actions: ['resolve' as const],
        details: r.payload,
        createdAt: new Date(r.created_at).toISOString()
      }))
    ]
    return items.sort((a, b) => b.createdAt.localeCompare(a.createdAt))
  }

  async function count(): Promise<number> {
    const [r] = await q<{ n: string }>(
      `SELECT (SELECT count(*) FROM payment_issues WHERE resolved_at IS NULL)
            + (SELECT count(*) FROM refunds WHERE status <> 'PROCESSED')
            + (SELECT count(*) FROM gateway_events WHERE handled = false) AS n`,
      {}
    )
    return Number(r!.n)
  }

  /** The admin has dealt with an issue or an event. */
  async function resolve(type: unknown, id: unknown, ctx: Ctx): Promise<void> {
    const n = Number(id)
    if (!Number.isInteger(n) || n <= 0) throw badRequest('Invalid item')
    if (type === 'issue') {
      const rows = await q(`UPDATE payment_issues SET resolved_at = now(), resolved_by = :by WHERE id = :id AND resolved_at IS NULL RETURNING id`, {
        id: n,
        by: ctx.user?.id ?? null
      })
      if (!rows.length) throw notFound('Item not found or already resolved')
    } else if (type === 'event') {
      const rows = await q(
        `UPDATE gateway_events SET handled = true, note = COALESCE(note, '') || ' (dismissed by an admin)' WHERE id = :id AND handled = false RETURNING id`,
        { id: n }
      )
      if (!rows.length) throw notFound('Item not found or already resolved')
    } else throw badRequest('Only issues and events can be marked resolved')
  }

  return { note, list, count, resolve }
}

export type Attention = ReturnType<typeof createAttention>
