import { DeliveryBadge } from '../../../renderer/ui/DeliveryBadge.tsx'
import { useEffect, useState } from 'react'
import { api } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { formatCedis } from '../../../server/lib/money.ts'
import type { AgentOrder } from '../../../server/services/orders/agent-orders.ts'
import { formatDate, formatSize, NETWORK_LABEL, NETWORKS, paymentStatusLabel, statusClass } from '../_shared/format.ts'

const STATUSES = ['ALL', 'PENDING', 'SUCCESS', 'FAILED', 'DELIVERED'] as const
const LIMIT = 20

interface ListResponse {
  orders: AgentOrder[]
  pagination: { total: number; totalPages: number; page: number }
  totalAll: number
}

function Skeleton() {
  return (
    <div aria-busy="true" aria-label="Loading orders" data-testid="orders-skeleton">
      {Array.from({ length: 6 }, (_, i) => (
        <div key={i} className="box skeleton-block is-skeleton mb-2" />
      ))}
    </div>
  )
}

/** The approved agent's own orders: server-side search and filters, counts, pages. */
export function OrdersTable() {
  const toast = useToast()
  const [search, setSearch] = useState('')
  const [query, setQuery] = useState('')
  const [status, setStatus] = useState<string>('ALL')
  const [network, setNetwork] = useState<string>('ALL')
  const [page, setPage] = useState(1)
  const [data, setData] = useState<ListResponse | null>(null)
  const [loading, setLoading] = useState(true)

  // Typing settles for 300 ms before the list reloads.
  useEffect(() => {
    const t = setTimeout(() => setQuery(search.trim()), 300)
    return () => clearTimeout(t)
  }, [search])
  useEffect(() => setPage(1), [query, status, network])

  useEffect(() => {
    let stale = false
    setLoading(true)
    const qs = new URLSearchParams({ includeExported: 'true', page: String(page), limit: String(LIMIT), status, network })
    if (query) qs.set('search', query)
    api<ListResponse>(`/api/orders?${qs}`)
      .then((r) => {
        if (!stale) setData(r)
      })
      .catch((err) => {
        if (!stale) toast(err?.message || 'Failed to fetch orders', 'error')
      })
      .finally(() => {
        if (!stale) setLoading(false)
      })
    return () => {
      stale = true
    }
  }, [query, status, network, page, toast])

  const filtered = data?.pagination.total ?? 0
  const filtersOn = !!query || status !== 'ALL' || network !== 'ALL'

  return (
    <div className="box">
      <div className="columns is-multiline">
        <div className="column is-12-mobile is-6-tablet">
          <label className="label" htmlFor="orders-search">
            Search
          </label>
          <input
            id="orders-search"
            className="input"
            type="search"
            placeholder="Recipient number or network"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <div className="column is-6-mobile is-3-tablet">
          <label className="label" htmlFor="orders-status">
            Status
          </label>
          <div className="select is-fullwidth">
            <select id="orders-status" value={status} onChange={(e) => setStatus(e.target.value)}>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s === 'ALL' ? 'All' : paymentStatusLabel(s)}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className="column is-6-mobile is-3-tablet">
          <label className="label" htmlFor="orders-network">
            Network
          </label>
          <div className="select is-fullwidth">
            <select id="orders-network" value={network} onChange={(e) => setNetwork(e.target.value)}>
              <option value="ALL">All</option>
              {NETWORKS.map((n) => (
                <option key={n} value={n}>
                  {NETWORK_LABEL[n]}
                </option>
              ))}
            </select>
          </div>
        </div>
      </div>

      <div className="level is-mobile mb-3">
        <div className="level-left">
          <h2 className="title is-5 mb-0" data-testid="orders-count">
            Orders ({filtered})
          </h2>
        </div>
        <div className="level-right">
          <span className="tag is-light" data-testid="orders-total">
            Total ({data?.totalAll ?? 0})
          </span>
        </div>
      </div>

      {loading && !data ? (
        <Skeleton />
      ) : data && data.orders.length === 0 ? (
        <p className="has-text-centered py-5" data-testid="orders-empty">
          {filtersOn ? 'No orders match your filters.' : 'No orders yet. Start by placing your first order!'}
        </p>
      ) : (
        <div className="table-container" aria-busy={loading}>
          <table className="table is-stacked-mobile is-fullwidth is-striped is-hoverable">
            <thead>
              <tr>
                <th>Recipient</th>
                <th>Network</th>
                <th>Size</th>
                <th>Amount</th>
                <th>Payment Status</th>
                <th>Delivery</th>
                <th>Date</th>
              </tr>
            </thead>
            <tbody>
              {data?.orders.map((o) => (
                <tr key={o.id} data-testid="order-row">
                  <td data-label="Recipient" className="is-monospace" style={{ whiteSpace: 'nowrap', wordBreak: 'normal' }}>
                    {o.recipientNumber}
                  </td>
                  <td data-label="Network">{NETWORK_LABEL[o.network] ?? o.network}</td>
                  <td data-label="Size">{formatSize(o.dataSizeMB)}</td>
                  <td data-label="Amount">{formatCedis(o.amount)}</td>
                  {/* The payment's own status here: delivery has its column, so a delivered order still reads Successful. */}
                  <td data-label="Payment Status">
                    <span className={`tag ${statusClass(o.paymentStatus)}`} data-status={o.paymentStatus}>
                      {paymentStatusLabel(o.paymentStatus)}
                    </span>
                  </td>
                  <td data-label="Delivery">
                    <DeliveryBadge status={o.deliveryStatus} paid={o.paymentStatus === 'SUCCESS'} />
                  </td>
                  <td data-label="Date">{formatDate(o.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {data && data.pagination.totalPages > 1 ? (
        <nav className="pagination is-small is-centered" aria-label="pagination">
          <button className="pagination-previous button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </button>
          <button className="pagination-next button" disabled={page >= data.pagination.totalPages} onClick={() => setPage(page + 1)}>
            Next
          </button>
          <p className="pagination-list is-size-7">
            Page {page} of {data.pagination.totalPages}
          </p>
        </nav>
      ) : null}
    </div>
  )
}
