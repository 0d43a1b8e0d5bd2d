import { useEffect, useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { Pager } from '../../../renderer/ui/Pager.tsx'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { formatCedis } from '../../../server/lib/money.ts'
import { formatDate } from '../_shared/format.ts'

interface Entry {
  id: number
  type: string
  amount: number
  balanceAfter: number
  reason: string
  orderId: number | null
  transactionId: string | null
  createdAt: string
}
interface Page {
  entries: Entry[]
  pagination: { page: number; totalPages: number; total: number }
}

const TYPES = [
  ['', 'All types'],
  ['TOPUP', 'Top-up'],
  ['ORDER', 'Order'],
  ['REFUND', 'Refund'],
  ['ADJUSTMENT', 'Adjustment']
] as const
const TYPE_LABEL: Record<string, string> = Object.fromEntries(TYPES.filter(([v]) => v))

/** The statement, newest first, with type and date filters and the same filters for the CSV. */
export function Statement({
  version,
  base = '/api/wallet/statement',
  csv = true,
  action
}: {
  version: number
  base?: string
  csv?: boolean
  /** What the reader may do with an entry (the admin's refund of a top-up), shown after its details. */
  action?: (e: Entry) => React.ReactNode
}) {
  const toast = useToast()
  const [type, setType] = useState('')
  const [from, setFrom] = useState('')
  const [to, setTo] = useState('')
  const [page, setPage] = useState(1)
  const [data, setData] = useState<Page | null>(null)
  const [loading, setLoading] = useState(true)
  const params = new URLSearchParams(Object.entries({ type, from, to }).filter(([, v]) => v))

  useEffect(() => {
    let live = true
    setLoading(true)
    api<Page>(`${base}?${params.toString()}&page=${page}&limit=20`)
      .then((d) => live && setData(d))
      .catch((err) => live && toast(err instanceof ApiError && err.message ? err.message : 'Failed to load the statement', 'error'))
      .finally(() => live && setLoading(false))
    return () => {
      live = false
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [type, from, to, page, version, base])

  return (
    <div className="box">
      <h2 className="title is-5">Statement</h2>
      <div className="columns is-multiline">
        <div className="column is-4-tablet">
          <div className="field">
            <label className="label" htmlFor="st-type">
              Type
            </label>
            <div className="select is-fullwidth">
              <select
                id="st-type"
                value={type}
                onChange={(e) => {
                  setType(e.target.value)
                  setPage(1)
                }}>
                {TYPES.map(([v, l]) => (
                  <option key={v} value={v}>
                    {l}
                  </option>
                ))}
              </select>
            </div>
          </div>
        </div>
        <div className="column is-4-tablet is-6-mobile">
          <div className="field">
            <label className="label" htmlFor="st-from">
              From
            </label>
            <input
              id="st-from"
              className="input"
              type="date"
              value={from}
              onChange={(e) => {
                setFrom(e.target.value)
                setPage(1)
              }}
            />
          </div>
        </div>
        <div className="column is-4-tablet is-6-mobile">
          <div className="field">
            <label className="label" htmlFor="st-to">
              To
            </label>
            <input
              id="st-to"
              className="input"
              type="date"
              value={to}
              onChange={(e) => {
                setTo(e.target.value)
                setPage(1)
              }}
            />
          </div>
        </div>
      </div>
      {csv ? (
        <a className="button is-small mb-3" href={`/api/wallet/statement.csv?${params.toString()}`} download data-testid="statement-csv">
          Download CSV
        </a>
      ) : null}
      <div className="table-container">
        <table className="table is-stacked-mobile is-fullwidth is-striped" aria-busy={loading} data-testid="statement">
          <thead>
            <tr>
              <th>Date</th>
              <th>Type</th>
              <th>Details</th>
              <th className="has-text-right">Amount</th>
              <th className="has-text-right">Balance</th>
            </tr>
          </thead>
          <tbody>
            {data?.entries.length ? (
              data.entries.map((e) => (
                <tr key={e.id}>
                  <td data-label="Date">{formatDate(e.createdAt)}</td>
                  <td data-label="Type">{TYPE_LABEL[e.type] ?? e.type}</td>
                  <td data-label="Details">
                    {e.reason}
                    {action?.(e)}
                  </td>
                  <td data-label="Amount" className={`has-text-right ${e.amount < 0 ? 'has-text-danger' : 'has-text-success'}`}>
                    {e.amount > 0 ? '+' : ''}
                    {formatCedis(e.amount)}
                  </td>
                  <td data-label="Balance" className="has-text-right">
                    {formatCedis(e.balanceAfter)}
                  </td>
                </tr>
              ))
            ) : (
              <tr>
                <td colSpan={5} className="has-text-centered">
                  {loading ? 'Loading...' : 'No entries for these filters.'}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {data ? <Pager page={data.pagination.page} totalPages={data.pagination.totalPages} onPage={setPage} label="Statement pages" disabled={loading} /> : null}
    </div>
  )
}
