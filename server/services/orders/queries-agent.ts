import { QueryTypes, type Sequelize } from 'sequelize'
import { NETWORKS } from '../../lib/vocabulary.ts'

// The agent's own dashboard figures (agent-orders.ts), as numbers.

/** One count per network, as columns net_0, net_1... in NETWORKS' order (the codes are ours, never input). */
const PER_NETWORK = NETWORKS.map((net, i) => `count(*) FILTER (WHERE network = '${net}') AS net_${i}`).join(',\n                  ')

export interface AgentOrderFigures {
  total: number
  success: number
  pending: number
  failed: number
  delivered: number
  spentPesewas: number
  dataMb: number
  byNetwork: Record<string, number>
}

export function createAgentOrderQueries(sequelize: Sequelize) {
  return {
    /** The figures and the per-network counts in one pass over the orders the agent placed or owns. */
    figures: async (agentId: number, userId: number): Promise<AgentOrderFigures> => {
      const [agg] = await sequelize.query<Record<string, string | null>>(
        `SELECT count(*) AS total,
                  count(*) FILTER (WHERE payment_status = 'SUCCESS') AS success,
                  count(*) FILTER (WHERE payment_status IN ('PENDING','IN_PROGRESS')) AS pending,
                  count(*) FILTER (WHERE payment_status IN ('FAILED','EXPIRED')) AS failed,
                  count(*) FILTER (WHERE payment_status = 'SUCCESS' AND delivered) AS delivered,
                  coalesce(sum(amount_pesewas) FILTER (WHERE payment_status = 'SUCCESS'), 0) AS spent,
                  coalesce(sum(data_size_mb) FILTER (WHERE payment_status = 'SUCCESS'), 0) AS data_mb,
                  ${PER_NETWORK}
             FROM orders_view WHERE agent_id = :agentId OR user_id = :userId`,
        { replacements: { agentId, userId }, type: QueryTypes.SELECT }
      )
      const n = (k: string) => Number(agg?.[k] ?? 0)
      return {
        total: n('total'),
        success: n('success'),
        pending: n('pending'),
        failed: n('failed'),
        delivered: n('delivered'),
        spentPesewas: n('spent'),
        dataMb: n('data_mb'),
        byNetwork: Object.fromEntries(NETWORKS.map((net, i) => [net, n(`net_${i}`)]))
      }
    }
  }
}
