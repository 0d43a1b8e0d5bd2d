import { useEffect, useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { Pager } from '../../../renderer/ui/Pager.tsx'
import { Tabs } from '../../../renderer/ui/Tabs.tsx'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { formatCedis } from '../../../server/lib/money.ts'
import type { PayoutView } from '../../../server/services/payouts/index.ts'
import { formatDate } from '../../agent/_shared/format.ts'
import { PayoutStatusTag } from '../../agent/payouts/status.tsx'

const TABS = [
  { id: 'PENDING_APPROVAL', label: 'Pending approval' },
  { id: 'SENT', label: 'Sent' },
  { id: 'SUCCESS', label: 'Success' },
  { id: 'FAILED', label: 'Failed' },
  { id: 'REVERSED', label: 'Reversed' },
  { id: 'REJECTED', label: 'Rejected' },
  { id: 'ALL', label: 'All' }
] as const
type TabId = (typeof TABS)[number]['id']
interface ListPage {
  payouts: PayoutView[]
  counts: Record<string, number>
  pagination: { page: number; totalPages: number; total: number }
}
const errorText = (err: unknown, fallback: string) => (err instanceof ApiError && err.message ? err.message : fallback)
const countOf = (id: TabId, counts: Record<string, number>) =>
  id === 'ALL'
    ? Object.values(counts).reduce((a, b) => a + b, 0)
    : id === 'SENT'
      ? ['QUEUED', 'SENDING', 'SENT', 'UNKNOWN'].reduce((a, s) => a + (counts[s] ?? 0), 0)
      : (counts[id] ?? 0)

/** Admin: agents' payouts by status; approve or reject those above the approval amount, retry failed ones, export. */
export default function Page() {
  const toast = useToast()
  const [tab, setTab] = useState<TabId>('PENDING_APPROVAL')
  const [page, setPage] = useState(1)
  const [data, setData] = useState<ListPage | null>(null)
  const [loading, setLoading] = useState(true)
  const [busy, setBusy] = useState<string | null>(null)
  const [version, setVersion] = useState(0)
  const status = tab === 'ALL' ? '' : tab

  useEffect(() => {
    let live = true
    setLoading(true)
    api<ListPage>(`/api/admin/payouts?status=${status}&page=${page}&limit=20`)
      .then((d) => live && setData(d))
      .catch((err) => live && toast(errorText(err, 'Failed to load payouts'), 'error'))
      .finally(() => live && setLoading(false))
    return () => {
      live = false
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [status, page, version])

  async function act(p: PayoutView, action: 'approve' | 'reject' | 'retry') {
    let body: Record<string, unknown> = {}
    if (action === 'reject') {
      const reason = prompt(`Reject payout #${p.id} of ${formatCedis(p.amount)} to ${p.agentName}? The money goes back to the agent's earnings. Reason:`)
      if (reason === null) return
      body = { reason }
    } else if (action === 'retry' && !confirm(`Send payout #${p.id} of ${formatCedis(p.amount)} again? It is held again from the agent's available earnings.`))
      return
    setBusy(`${action}-${p.id}`)
    try {
      const r = await api<PayoutView>(`/api/admin/payouts/${p.id}/${action}`, { body, fallbackError: 'Action failed' })
      toast(
        action === 'approve'
          ? `Payout #${p.id} approved and queued`
          : action === 'reject'
            ? `Payout #${p.id} rejected; the money went back to the agent`
            : `Payout #${p.id} sent again as payout #${r.id}`,
        'success'
      )
      setVersion((v) => v + 1)
    } catch (err) {
      toast(errorText(err, 'Action failed'), 'error')
    } finally {
      setBusy(null)
    }
  }

  return (
    <section>
      <h1 className="title">Payouts</h1>
      <p className="subtitle is-6">
        Agents' withdrawals of shop earnings to mobile money. Payouts needing a decision the code cannot make are also on{' '}
        <a href="/admin/payments">Payments needing attention</a>.
      </p>
      <SimulatorControl />
      <div className="box">
        <Tabs
          className="is-scrollable"
          label="Payout status"
          current={tab}
          onChange={(t) => {
            setTab(t)
            setPage(1)
          }}
          tabs={TABS.map((t) => ({ id: t.id, label: data ? `${t.label} (${countOf(t.id, data.counts)})` : t.label }))}
        />
        <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
          <a className="button is-small mb-3" href={`/api/admin/payouts/export.csv?status=${status}`} download data-testid="payouts-csv">
            Export CSV
          </a>
          <div className="table-container">
            <table className="table is-stacked-mobile is-fullwidth is-striped" aria-busy={loading} data-testid="admin-payouts">
              <thead>
                <tr>
                  <th>#</th>
                  <th>Requested</th>
                  <th>Agent</th>
                  <th>To</th>
                  <th className="has-text-right">Amount</th>
                  <th className="has-text-right">Fee</th>
                  <th>Status</th>
                  <th>Details</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {data?.payouts.length ? (
                  data.payouts.map((p) => (
                    <tr key={p.id} data-payout={p.id}>
                      <td data-label="#">
                        {p.id}
                        {p.retryOf ? <span className="help">retry of #{p.retryOf}</span> : null}
                      </td>
                      <td data-label="Requested">{formatDate(p.createdAt)}</td>
                      <td data-label="Agent">
                        {p.agentName} <span className="help">{p.agentPhone}</span>
                      </td>
                      <td data-label="To">
                        {p.network} {p.phone} <span className="help">{p.accountName}</span>
                      </td>
                      <td data-label="Amount" className="has-text-right">
                        {formatCedis(p.amount)}
                      </td>
                      <td data-label="Fee" className="has-text-right">
                        {formatCedis(p.fee)}
                      </td>
                      <td data-label="Status">
                        <PayoutStatusTag status={p.status} />
                      </td>
                      <td data-label="Details">
                        {p.message ?? ''}
                        {p.retriedBy ? <span className="help">Retried as #{p.retriedBy}</span> : null}
                      </td>
                      <td data-label="Actions">
                        <div className="buttons are-small">
                          {p.status === 'PENDING_APPROVAL' ? (
                            <>
                              <button
                                type="button"
                                className={`button is-success${busy === `approve-${p.id}` ? ' is-loading' : ''}`}
                                disabled={!!busy}
                                onClick={() => void act(p, 'approve')}>
                                Approve
                              </button>
                              <button
                                type="button"
                                className={`button is-danger is-outlined${busy === `reject-${p.id}` ? ' is-loading' : ''}`}
                                disabled={!!busy}
                                onClick={() => void act(p, 'reject')}>
                                Reject
                              </button>
                            </>
                          ) : null}
                          {(p.status === 'FAILED' || p.status === 'REVERSED') && !p.retriedBy ? (
                            <button
                              type="button"
                              className={`button is-warning${busy === `retry-${p.id}` ? ' is-loading' : ''}`}
                              disabled={!!busy}
                              onClick={() => void act(p, 'retry')}>
                              Retry
                            </button>
                          ) : null}
                        </div>
                      </td>
                    </tr>
                  ))
                ) : (
                  <tr>
                    <td colSpan={9} className="has-text-centered">
                      {loading ? 'Loading...' : 'No payouts here.'}
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
          {data ? <Pager page={data.pagination.page} totalPages={data.pagination.totalPages} onPage={setPage} label="Payout pages" disabled={loading} /> : null}
        </div>
      </div>
    </section>
  )
}

/** Without a Paystack key the transfers are simulated: make the next ones fail, reverse or time out. */
function SimulatorControl() {
  const toast = useToast()
  const [state, setState] = useState<{ mode: string; remaining: number; delayMs: number } | null>(null)
  const [mode, setMode] = useState('fail')
  const [count, setCount] = useState('1')
  const [busy, setBusy] = useState(false)
  useEffect(() => {
    api<{ simulator: { mode: string; remaining: number; delayMs: number } }>('/api/payouts/simulator')
      .then((r) => setState(r.simulator))
      .catch(() => setState(null))
  }, [])
  if (!state) return null
  async function apply(e: React.FormEvent) {
    e.preventDefault()
    setBusy(true)
    try {
      const r = await api<{ simulator: { mode: string; remaining: number; delayMs: number } }>('/api/payouts/simulator', {
        body: { mode, count: Number(count) || 1 },
        fallbackError: 'Could not update the simulator'
      })
      setState(r.simulator)
      toast('Transfers simulator updated', 'success')
    } catch (err) {
      toast(errorText(err, 'Could not update the simulator'), 'error')
    } finally {
      setBusy(false)
    }
  }
  return (
    <form className="box" onSubmit={(e) => void apply(e)} aria-labelledby="sim-title">
      <h2 className="title is-6" id="sim-title">
        Transfers simulator
      </h2>
      <p className="help mb-3">
        No Paystack key is set, so transfers are simulated and complete after {Math.round(state.delayMs / 100) / 10} s. Now:{' '}
        {state.remaining > 0
          ? `the next ${state.remaining} ${state.mode === 'fail' ? 'fail' : state.mode === 'reverse' ? 'are reversed' : 'time out'}`
          : 'every transfer succeeds'}
        .
      </p>
      <div className="field is-grouped is-grouped-multiline">
        <div className="control">
          <label className="label is-small" htmlFor="sim-mode">
            Next transfers
          </label>
          <div className="select is-small">
            <select id="sim-mode" value={mode} onChange={(e) => setMode(e.target.value)}>
              <option value="succeed">Succeed</option>
              <option value="fail">Fail</option>
              <option value="reverse">Are reversed</option>
              <option value="timeout">Time out (outcome asked again)</option>
            </select>
          </div>
        </div>
        <div className="control">
          <label className="label is-small" htmlFor="sim-count">
            How many
          </label>
          <input id="sim-count" className="input is-small" type="number" min={1} max={100} value={count} onChange={(e) => setCount(e.target.value)} />
        </div>
        <div className="control is-align-self-flex-end">
          <button type="submit" className={`button is-small is-primary${busy ? ' is-loading' : ''}`} disabled={busy}>
            Apply
          </button>
        </div>
      </div>
    </form>
  )
}
