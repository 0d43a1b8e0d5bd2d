import type { AgentWithUser } from './queries.ts'

export interface AgentView {
  id: number
  userId: number
  name: string
  phone: string
  email: string | null
  approved: boolean
  approvedAt: string | null
  paymentStatus: string | null
  paymentTransactionId: string | null
  hasPin: boolean
  /** The agent's tier (null: the first tier) and, for a sub-agent, the agent that invited it (ADR 0041). */
  tierId: number | null
  parentAgentId: number | null
  createdAt: string
  user: { id: number; email: string; phone: string | null; name: string | null; createdAt: string } | null
}

/** An agent as the API and the agent pages show it: no PIN hash, only whether there is one. */
export function present(a: AgentWithUser): AgentView {
  const u = a.user
  return {
    id: a.id,
    userId: a.userId,
    name: a.name,
    phone: a.phone,
    email: u?.email ?? null,
    approved: !!a.approved,
    approvedAt: a.approvedAt ? new Date(a.approvedAt).toISOString() : null,
    paymentStatus: a.paymentStatus ? String(a.paymentStatus).toUpperCase() : null,
    paymentTransactionId: a.paymentTransactionId ?? null,
    hasPin: !!a.pinHash,
    tierId: a.tierId ?? null,
    parentAgentId: a.parentAgentId ?? null,
    createdAt: new Date(a.createdAt).toISOString(),
    user: u ? { id: u.id, email: u.email, phone: u.phone ?? null, name: u.name ?? null, createdAt: new Date(u.createdAt).toISOString() } : null
  }
}
