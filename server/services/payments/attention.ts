import type { Sequelize, Transaction } from 'sequelize'
import { badRequest, notFound } from '../../lib/errors.ts'
import { ghsText, toGhs } from '../../lib/money.ts'
import type { Ctx } from '../context.ts'
import { createAttentionQueries } from './queries-attention.ts'

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
  const queries = createAttentionQueries(sequelize)

  /** Records (or refreshes) one issue; the same (kind, key) is one row however often it is seen. */
  async function note(n: IssueNote, transaction?: Transaction): Promise<void> {
    await queries.upsertIssue(
      {
        kind: n.kind,
        key: n.key,
        transactionId: n.transactionId ?? null,
        summary: n.summary.slice(0, 500),
        actionTaken: n.actionTaken ?? null,
        details: n.details ?? {}
      },
      transaction
    )
  }

  async function list(): Promise<AttentionItem[]> {
    const issues = await queries.openIssues()
    const refunds = await queries.openRefunds()
    const events = await queries.unhandledEvents()
    const items: AttentionItem[] = [
      ...issues.map((r) => ({
        type: 'issue' as const,
        id: r.id,
        kind: r.kind,
        transactionId: r.transactionId,
        summary: r.summary,
        actionTaken: r.actionTaken,
        actions: ['resolve' as const],
        details: r.details,
        createdAt: new Date(r.createdAt).toISOString()
      })),
      ...refunds.map((r) => ({
        type: 'refund' as const,
        id: r.id,
        kind: r.status === 'FAILED' ? 'refund_failed' : 'refund_in_flight',
        transactionId: r.transactionId,
        summary: `${r.kind === 'excess' ? 'Refund of the overpayment' : 'Refund'} of ${ghsText(r.amountPesewas)}: ${r.reason}`,
        actionTaken: r.status === 'FAILED' ? `Refund failed: ${r.message ?? 'refused by the gateway'}` : `Refund ${r.status.toLowerCase()} with ${r.gateway}`,
        actions: r.status === 'FAILED' ? ['retry_refund' as const] : [],
        details: { amount: toGhs(r.amountPesewas), status: r.status, message: r.message },
        createdAt: new Date(r.createdAt).toISOString()
      })),
      ...events.map((r) => ({
        type: 'event' as const,
        id: r.id,
        kind: 'unhandled_event',
        transactionId: r.reference,
        summary: `Gateway event ${r.event}${r.reference ? ` for ${r.reference}` : ''}${r.receivedCount > 1 ? ` (received ${r.receivedCount} times)` : ''}`,
        actionTaken: r.note ?? 'Stored, nothing changed',
        actions: ['resolve' as const],
        details: r.payload,
        createdAt: new Date(r.createdAt).toISOString()
      }))
    ]
    return items.sort((a, b) => b.createdAt.localeCompare(a.createdAt))
  }

  const count = (): Promise<number> => queries.countOpen()

  /** The admin has dealt with an issue or an event. */
  async function resolve(type: unknown, id: unknown, ctx: Ctx): Promise<void> {
    const n = Number(id)
    if (!Number.isInteger(n) || n <= 0) throw badRequest('Invalid item')
    if (type === 'issue') {
      if (!(await queries.resolveIssue(n, ctx.user?.id ?? null))) throw notFound('Item not found or already resolved')
    } else if (type === 'event') {
      if (!(await queries.dismissEvent(n))) throw notFound('Item not found or already resolved')
    } else throw badRequest('Only issues and events can be marked resolved')
  }

  return { note, list, count, resolve }
}

export type Attention = ReturnType<typeof createAttention>
