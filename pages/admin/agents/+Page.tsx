import { useEffect, useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import type { AgentView } from '../../../server/services/agents/index.ts'
import { SendPasswordReset } from '../_recovery/SendPasswordReset.tsx'
import { paymentLabel, statusClass } from '../../agent/_shared/format.ts'
import { formatCedis } from '../../../server/lib/money.ts'
import { AgentTier, type TierOption } from './AgentTier.tsx'

type Filter = 'all' | 'pending' | 'approved'

function Skeleton() {
  return (
    <div aria-busy="true" aria-label="Loading agents" data-testid="agents-skeleton">
      {Array.from({ length: 6 }, (_, i) => (
        <div key={i} className="box skeleton-block mb-2" />
      ))}
    </div>
  )
}

/** Admin: every agent, search and status filter, approve toggle (only once the fee payment is SUCCESS). */
export default function Page() {
  const toast = useToast()
  const [agents, setAgents] = useState<AgentView[] | null>(null)
  const [search, setSearch] = useState('')
  const [filter, setFilter] = useState<Filter>('all')
  const [busy, setBusy] = useState<number | null>(null)
  const [balances, setBalances] = useState<Record<string, number>>({})
  const [tiers, setTiers] = useState<TierOption[]>([])

  useEffect(() => {
    api<AgentView[]>('/api/agents')
      .then(setAgents)
      .catch((err) => {
        setAgents([])
        toast(err instanceof ApiError && err.message ? err.message : 'Failed to load agents', 'error')
      })
    api<Record<string, number>>('/api/wallet/balances')
      .then(setBalances)
      .catch(() => setBalances({}))
    api<{ tiers: TierOption[] }>('/api/admin/tiers')
      .then((r) => setTiers(r.tiers))
      .catch(() => setTiers([]))
  }, [toast])

  async function toggle(a: AgentView) {
    setBusy(a.id)
    try {
      const r = await api<{ agent: AgentView; message: string }>(`/api/agents/${a.id}/${a.approved ? 'unapprove' : 'approve'}`, { method: 'PATCH' })
      setAgents((list) => (list ?? []).map((x) => (x.id === a.id ? r.agent : x)))
      toast(r.message, 'success')
    } catch (err) {
      toast(err instanceof ApiError && err.message ? err.message : 'Failed to update agent', 'error')
    } finally {
      setBusy(null)
    }
  }

  const q = search.trim().toLowerCase()
  const shown = (agents ?? []).filter((a) => {
    if (filter === 'approved' && !a.approved) return false
    if (filter === 'pending' && a.approved) return false
    if (!q) return true
    return [a.name, a.phone, a.email ?? ''].some((v) => v.toLowerCase().includes(q))
  })

  return (
    <section>
      <h1 className="title">Agents</h1>
      <p className="subtitle is-6">Approve agents once their registration payment is successful.</p>
      <div className="columns">
        <div className="column is-8">
          <label className="label" htmlFor="agents-search">
            Search
          </label>
          <input
            id="agents-search"
            className="input"
            type="search"
            placeholder="Name, phone or email"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <div className="column is-4">
          <label className="label" htmlFor="agents-status">
            Status
          </label>
          <div className="select is-fullwidth">
            <select id="agents-status" value={filter} onChange={(e) => setFilter(e.target.value as Filter)}>
              <option value="all">All Status</option>
              <option value="pending">Pending Approval</option>
              <option value="approved">Approved</option>
            </select>
          </div>
        </div>
      </div>

      <div className="level is-mobile">
        <div className="level-left">
          <h2 className="title is-5 mb-0" data-testid="agents-count">
            Agents ({shown.length})
          </h2>
        </div>
        <div className="level-right">
          <span className="tag is-light" data-testid="agents-total">
            Total: {agents?.length ?? 0}
          </span>
        </div>
      </div>

      {agents === null ? (
        <Skeleton />
      ) : shown.length === 0 ? (
        <p className="box has-text-centered" data-testid="agents-empty">
          {agents.length ? 'No agents match your filters.' : 'No agents registered yet.'}
        </p>
      ) : (
        <div className="table-container box p-0">
          <table className="table is-stacked-mobile is-fullwidth is-striped is-hoverable">
            <thead>
              <tr>
                <th>Name</th>
                <th>Phone</th>
                <th>Email</th>
                <th>Payment Status</th>
                <th>Transaction ID</th>
                <th>Approved</th>
                <th>Wallet</th>
                <th>Tier</th>
                <th>Parent</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((a) => {
                const paid = a.paymentStatus === 'SUCCESS'
                return (
                  <tr key={a.id} data-testid="agent-row">
                    <td data-label="Name">{a.name}</td>
                    <td data-label="Phone" className="is-monospace" style={{ whiteSpace: 'nowrap', wordBreak: 'normal' }}>
                      {a.phone}
                    </td>
                    <td data-label="Email">{a.email}</td>
                    <td data-label="Payment Status">
                      <span className={`tag ${statusClass(a.paymentStatus)}`}>{paymentLabel(a.paymentStatus)}</span>
                    </td>
                    <td data-label="Transaction ID" className="is-monospace">
                      {a.paymentTransactionId ?? 'N/A'}
                    </td>
                    <td data-label="Approved">{a.approved ? <span className="tag is-success">Yes</span> : <span className="tag is-light">No</span>}</td>
                    <td data-label="Wallet" style={{ whiteSpace: 'nowrap' }}>
                      <a
                        href={`/admin/wallets?agentId=${a.id}`}
                        aria-label={`${formatCedis(balances[String(a.id)] ?? 0)}, wallet of ${a.name}`}
                        data-testid="agent-wallet">
                        {formatCedis(balances[String(a.id)] ?? 0)}
                      </a>
                    </td>
                    <td data-label="Tier">
                      <AgentTier agentId={a.id} agentName={a.name} tierId={a.tierId} tiers={tiers} />
                    </td>
                    <td data-label="Parent">
                      {a.parentAgentId ? (agents.find((p) => p.id === a.parentAgentId)?.name ?? `#${a.parentAgentId}`) : '-'}
                      <br />
                      <a className="is-size-7" href={`/admin/tiers?agentId=${a.id}`}>
                        Tree
                      </a>
                    </td>
                    <td data-label="Actions">
                      <label className="checkbox" title={paid ? undefined : 'Approval needs a successful registration payment'}>
                        <input
                          type="checkbox"
                          checked={a.approved}
                          disabled={!paid || busy === a.id}
                          onChange={() => void toggle(a)}
                          aria-label={`${a.approved ? 'Unapprove' : 'Approve'} ${a.name}`}
                        />{' '}
                        {busy === a.id ? 'Saving...' : 'Approved'}
                      </label>
                      <div className="mt-2">
                        <SendPasswordReset userId={a.userId} label={a.name} />
                      </div>
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
