import { rangeSql, whereSql, type Range } from '../reports/range.ts'

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
