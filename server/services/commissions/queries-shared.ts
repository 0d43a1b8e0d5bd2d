import { rangeSql, whereSql, type Range } from '../reports/range.ts'

// The SQL pieces the commissions' statements (queries.ts) share.

/** A commission with its order, buyer and agent: the columns and the joins of one page. */
export const ROWS = `SELECT c.*, o.recipient_number, o.data_size_mb, o.package_name, o.user_id, u.email AS user_email, a.name AS agent_name, a.phone AS agent_phone`
export const JOINS = `LEFT JOIN orders o ON o.id = c.order_id LEFT JOIN users u ON u.id = o.user_id LEFT JOIN agents a ON a.id = c.agent_id`

/**
 * The margins parents earned on their sub-agents' orders (ADR 0041): SUB_AGENT_MARGIN entries in the
 * earnings ledger net of their reversals, dated by the entry (when the margin was paid or taken back).
 * They are a figure of their own: such an order writes no commission row, so the commission totals
 * never hold it, and the sale itself counts under the sub-agent who placed it.
 * `margin` is pesewas; `n` the orders credited and not taken back. Grouped by the parent when asked.
 */
export function parentMarginsSql(range: Range, repl: Record<string, unknown>, opts: { network?: string | null; byAgent?: boolean } = {}) {
  const where = [`e.type IN ('SUB_AGENT_MARGIN', 'SUB_AGENT_MARGIN_REVERSAL')`]
  rangeSql('e.created_at', range, where, repl, 'pm')
  if (opts.network) where.push('o.network = :network')
  return `SELECT ${opts.byAgent ? 'e.agent_id, ' : ''}COALESCE(sum(e.amount_pesewas), 0) AS margin,
                 count(*) FILTER (WHERE e.type = 'SUB_AGENT_MARGIN') - count(*) FILTER (WHERE e.type = 'SUB_AGENT_MARGIN_REVERSAL') AS n
            FROM earnings_entries e${opts.network ? ' JOIN orders o ON o.id = e.order_id' : ''} ${whereSql(where)}${opts.byAgent ? ' GROUP BY e.agent_id' : ''}`
}
