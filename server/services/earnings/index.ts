import type { Sequelize } from 'sequelize'
import { toGhs } from '../../lib/money.ts'
import { requireActiveAgent } from '../agents/index.ts'
import type { Ctx } from '../context.ts'
import { earningsOf, postEarnings } from './ledger.ts'
import { createEarningsQueries, type EarningsRow, type EarningsType } from './queries.ts'

export interface EarningsEntryView {
  id: number
  type: EarningsType
  amount: number
  balanceAfter: number
  reason: string
  orderId: number | null
  payoutId: number | null
  paymentTransactionId: string | null
  createdAt: string
}

export const presentEarnings = (e: EarningsRow): EarningsEntryView => ({
  id: e.id,
  type: e.type,
  amount: toGhs(e.amountPesewas)!,
  balanceAfter: toGhs(e.balanceAfterPesewas)!,
  reason: e.reason,
  orderId: e.orderId,
  payoutId: e.payoutId,
  paymentTransactionId: e.paymentTransactionId,
  createdAt: e.createdAt.toISOString()
})

export type EarningsService = ReturnType<typeof createEarningsService>

/** An agent's shop earnings (ADR 0020): margins in, payouts out, one ledger. */
export function createEarningsService(deps: { sequelize: Sequelize }) {
  const { sequelize } = deps
  const queries = createEarningsQueries(sequelize)

  async function entriesOf(agentId: number, limit = 50): Promise<EarningsEntryView[]> {
    return (await queries.entriesOf(agentId, limit)).map(presentEarnings)
  }

  return {
    post: (input: Parameters<typeof postEarnings>[1], t: Parameters<typeof postEarnings>[2]) => postEarnings(sequelize, input, t),
    balancePesewas: (agentId: number, t?: Parameters<typeof earningsOf>[2]) => earningsOf(sequelize, agentId, t),
    entriesOf,

    /** The signed-in agent's available earnings (may be below zero after a refund) and latest entries. */
    async mine(ctx: Ctx, limit = 50) {
      const agent = requireActiveAgent(ctx, 'Shop earnings')
      return { available: toGhs(await earningsOf(sequelize, agent.id))!, entries: await entriesOf(agent.id, Math.min(Math.max(1, limit), 200)) }
    }
  }
}
