import { useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { formatDate } from '../../../renderer/format.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { formatCedis } from '../../../server/lib/money.ts'
import type { SubAgentsService } from '../../../server/services/sub-agents/index.ts'

type SubAgent = Awaited<ReturnType<SubAgentsService['mine']>>['subAgents'][number]

const STATUS: Record<string, { label: string; tag: string }> = {
  ACTIVE: { label: 'Active', tag: 'is-success' },
  SUSPENDED: { label: 'Suspended', tag: 'is-danger' },
  AWAITING_APPROVAL: { label: 'Awaiting approval', tag: 'is-warning' },
  FEE_UNPAID: { label: 'Fee not paid', tag: 'is-light' }
}

/** The parent's sub-agents with their sales, last order and status; suspend, reinstate, and approve when the tier allows. */
export function SubAgentList({ initial, parentsApprove }: { initial: SubAgent[]; parentsApprove: boolean }) {
  const toast = useToast()
  const [list, setList] = useState(initial)
  const [busy, setBusy] = useState<string | null>(null)

  async function act(id: number, action: 'suspend' | 'reinstate' | 'approve') {
    setBusy(`${action}-${id}`)
    try {
      const res = await api<{ subAgents: SubAgent[] }>(`/api/sub-agents/${id}/${action}`, {
        method: 'POST',
        fallbackError: 'That did not work. Please try again.'
      })
      setList(res.subAgents)
      toast(action === 'suspend' ? 'Sub-agent suspended' : action === 'approve' ? 'Sub-agent approved' : 'Sub-agent reinstated', 'success')
    } catch (err) {
      toast(err instanceof ApiError ? err.message : 'That did not work. Please try again.', 'error')
    } finally {
      setBusy(null)
    }
  }

  if (!list.length)
    return (
      <p className="notification is-light" data-testid="no-sub-agents">
        No sub-agents yet. Share your invite link to bring some in.
      </p>
    )
  return (
    <div className="table-container">
      <table className="table is-fullwidth is-stacked-mobile" aria-label="Your sub-agents">
        <thead>
          <tr>
            <th scope="col">Sub-agent</th>
            <th scope="col">Status</th>
            <th scope="col">Sales</th>
            <th scope="col">Last order</th>
            <th scope="col">You earned</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {list.map((s) => {
            const st = STATUS[s.status] ?? { label: s.status, tag: 'is-light' }
            return (
              <tr key={s.id} data-testid={`sub-agent-${s.id}`}>
                <td data-label="Sub-agent">
                  {s.name}
                  <br />
                  <span className="is-size-7">{s.phone}</span>
                </td>
                <td data-label="Status">
                  <span className={`tag ${st.tag}`}>{st.label}</span>
                </td>
                <td data-label="Sales">
                  {s.sales} ({formatCedis(s.salesAmount)})
                </td>
                <td data-label="Last order">{s.lastOrderAt ? formatDate(s.lastOrderAt) : '-'}</td>
                <td data-label="You earned">{formatCedis(s.earned)}</td>
                <td data-label="Action">
                  <div className="buttons">
                    {s.status === 'SUSPENDED' ? (
                      <button
                        type="button"
                        className={`button is-small${busy === `reinstate-${s.id}` ? ' is-loading' : ''}`}
                        disabled={!!busy}
                        onClick={() => act(s.id, 'reinstate')}>
                        Reinstate
                      </button>
                    ) : (
                      <button
                        type="button"
                        className={`button is-small is-danger is-outlined${busy === `suspend-${s.id}` ? ' is-loading' : ''}`}
                        disabled={!!busy}
                        onClick={() => act(s.id, 'suspend')}>
                        Suspend
                      </button>
                    )}
                    {parentsApprove && s.status === 'AWAITING_APPROVAL' ? (
                      <button
                        type="button"
                        className={`button is-small is-primary${busy === `approve-${s.id}` ? ' is-loading' : ''}`}
                        disabled={!!busy}
                        onClick={() => act(s.id, 'approve')}>
                        Approve
                      </button>
                    ) : null}
                  </div>
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
