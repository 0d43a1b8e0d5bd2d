import type { CommissionView } from '../../../server/services/commissions/reports.ts'

/** Agent name and phone, or 'Direct Customer' when the order had no agent. */
export function AgentCell({ c }: { c: Pick<CommissionView, 'agentName' | 'agentPhone'> }) {
  if (!c.agentName) return <span className="has-text-grey">Direct Customer</span>
  return (
    <>
      <span>{c.agentName}</span>
      <br />
      <span className="is-size-7 has-text-grey">{c.agentPhone}</span>
    </>
  )
}
