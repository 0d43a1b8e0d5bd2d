import { toGhs } from '../../lib/money.ts'
import type { PayoutView } from './model.ts'

/** A payout as the API shows it (agent page, admin tabs, export), from a row of VIEW_SQL. */
export function presentPayout(r: any): PayoutView {
  return {
    id: Number(r.id),
    agentId: r.agent_id,
    ...(r.agent_name !== undefined ? { agentName: r.agent_name, agentPhone: r.agent_phone } : {}),
    amount: toGhs(Number(r.amount_pesewas))!,
    fee: toGhs(Number(r.fee_pesewas))!,
    total: toGhs(Number(r.amount_pesewas) + Number(r.fee_pesewas))!,
    status: r.status,
    reference: r.reference,
    network: r.network,
    phone: r.phone,
    accountName: r.resolved_name ?? r.account_name,
    message: r.message,
    channel: r.channel,
    retryOf: r.retry_of == null ? null : Number(r.retry_of),
    retriedBy: r.retried_by == null ? null : Number(r.retried_by),
    decisionReason: r.decision_reason,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString()
  }
}

/** Each payout with its number and its agent, and the payout that retried it. */
export const VIEW_SQL = `SELECT p.*, n.network, n.phone, n.account_name, n.resolved_name, a.name AS agent_name, a.phone AS agent_phone,
    (SELECT r.id FROM payouts r WHERE r.retry_of = p.id) AS retried_by
  FROM payouts p JOIN payout_numbers n ON n.id = p.payout_number_id JOIN agents a ON a.id = p.agent_id`

/** The admin tab's filter on `p` (payouts in VIEW_SQL). */
export function listWhere(status: string) {
  if (!status) return { where: 'TRUE', params: {} }
  // 'Sent' is everything the gateway still owes an answer on.
  if (status === 'SENT' || status === 'OPEN') return { where: `p.status IN ('QUEUED','SENDING','SENT','UNKNOWN')`, params: {} }
  return { where: 'p.status = :status', params: { status } }
}
