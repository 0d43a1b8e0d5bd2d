import { toGhs } from '../../lib/money.ts'
import type { PayoutView } from './model.ts'
import type { PayoutListed } from './queries.ts'

/** A payout as the API shows it (agent page, admin tabs, export). */
export function presentPayout(p: PayoutListed): PayoutView {
  return {
    id: p.id,
    agentId: p.agentId,
    agentName: p.agentName,
    agentPhone: p.agentPhone,
    amount: toGhs(p.amountPesewas)!,
    fee: toGhs(p.feePesewas)!,
    total: toGhs(p.amountPesewas + p.feePesewas)!,
    status: p.status,
    reference: p.reference,
    network: p.network,
    phone: p.phone,
    accountName: p.resolvedName ?? p.accountName,
    message: p.message,
    channel: p.channel,
    retryOf: p.retryOf,
    retriedBy: p.retriedBy,
    decisionReason: p.decisionReason,
    createdAt: new Date(p.createdAt).toISOString(),
    updatedAt: new Date(p.updatedAt).toISOString()
  }
}
