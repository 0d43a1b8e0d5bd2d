import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'

// The statements of "payments needing attention": the issues noted, the refunds not yet processed and
// the gateway events not handled, as typed camelCase rows.

export interface OpenIssue {
  id: number
  kind: string
  transactionId: string | null
  summary: string
  actionTaken: string | null
  details: unknown
  createdAt: Date
}

export interface OpenRefund {
  id: number
  kind: string
  transactionId: string | null
  amountPesewas: number
  reason: string
  status: string
  message: string | null
  gateway: string
  createdAt: Date
}

export interface OpenEvent {
  id: number
  event: string
  reference: string | null
  note: string | null
  payload: unknown
  receivedCount: number
  createdAt: Date
}

/** One issue to record, in the columns of payment_issues. */
export interface IssueColumns {
  kind: string
  key: string
  transactionId: string | null
  summary: string
  actionTaken: string | null
  details: Record<string, unknown>
}

type Raw = Record<string, any>

export function createAttentionQueries(sequelize: Sequelize) {
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })

  return {
    async upsertIssue(n: IssueColumns, transaction?: Transaction): Promise<void> {
      await q(
        `INSERT INTO payment_issues (kind, key, transaction_id, summary, action_taken, details)
       VALUES (:kind, :key, :tid, :summary, :action, CAST(:details AS jsonb))
       ON CONFLICT (kind, key) DO UPDATE SET summary = EXCLUDED.summary, action_taken = COALESCE(EXCLUDED.action_taken, payment_issues.action_taken),
         details = payment_issues.details || EXCLUDED.details, updated_at = now()
       RETURNING id`,
        {
          kind: n.kind,
          key: n.key,
          tid: n.transactionId,
          summary: n.summary,
          action: n.actionTaken,
          details: JSON.stringify(n.details)
        },
        transaction
      )
    },

    async openIssues(): Promise<OpenIssue[]> {
      const rows = await q<Raw>(
        `SELECT id, kind, transaction_id, summary, action_taken, details, created_at FROM payment_issues WHERE resolved_at IS NULL ORDER BY created_at DESC LIMIT 500`,
        {}
      )
      return rows.map((r) => ({
        id: Number(r.id),
        kind: r.kind,
        transactionId: r.transaction_id,
        summary: r.summary,
        actionTaken: r.action_taken,
        details: r.details,
        createdAt: r.created_at
      }))
    },

    async openRefunds(): Promise<OpenRefund[]> {
      const rows = await q<Raw>(
        `SELECT id, kind, transaction_id, amount_pesewas, reason, status, message, gateway, created_at FROM refunds
       WHERE status <> 'PROCESSED' ORDER BY created_at DESC LIMIT 500`,
        {}
      )
      return rows.map((r) => ({
        id: Number(r.id),
        kind: r.kind,
        transactionId: r.transaction_id,
        amountPesewas: Number(r.amount_pesewas),
        reason: r.reason,
        status: r.status,
        message: r.message,
        gateway: r.gateway,
        createdAt: r.created_at
      }))
    },

    async unhandledEvents(): Promise<OpenEvent[]> {
      const rows = await q<Raw>(
        `SELECT id, event, reference, note, payload, received_count, created_at FROM gateway_events WHERE handled = false ORDER BY created_at DESC LIMIT 500`,
        {}
      )
      return rows.map((r) => ({
        id: Number(r.id),
        event: r.event,
        reference: r.reference,
        note: r.note,
        payload: r.payload,
        receivedCount: Number(r.received_count),
        createdAt: r.created_at
      }))
    },

    async countOpen(): Promise<number> {
      const [r] = await q<{ n: string }>(
        `SELECT (SELECT count(*) FROM payment_issues WHERE resolved_at IS NULL)
            + (SELECT count(*) FROM refunds WHERE status <> 'PROCESSED')
            + (SELECT count(*) FROM gateway_events WHERE handled = false) AS n`,
        {}
      )
      return Number(r!.n)
    },

    /** Whether an open issue was there to resolve. */
    async resolveIssue(id: number, by: number | null): Promise<boolean> {
      const rows = await q(`UPDATE payment_issues SET resolved_at = now(), resolved_by = :by WHERE id = :id AND resolved_at IS NULL RETURNING id`, {
        id,
        by
      })
      return rows.length > 0
    },

    /** Whether an unhandled event was there to dismiss. */
    async dismissEvent(id: number): Promise<boolean> {
      const rows = await q(
        `UPDATE gateway_events SET handled = true, note = COALESCE(note, '') || ' (dismissed by an admin)' WHERE id = :id AND handled = false RETURNING id`,
        { id }
      )
      return rows.length > 0
    }
  }
}
