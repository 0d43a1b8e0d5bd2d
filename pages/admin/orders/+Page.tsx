import { useCallback, useEffect, useRef, useState } from 'react'
import type { Pagination } from '../../../server/lib/lists.ts'
import type { AdminOrder } from '../../../server/services/orders/admin.ts'
import { api, ApiError, download } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { usePageContext } from '../../../renderer/usePageContext.tsx'
import { countText, NETWORK_LABEL, statusOf } from '../_ops/format.ts'
import '../_ops/ops.css'
import { Pager } from '../_ops/Pager.tsx'
import type { OrdersData } from './+data.ts'
import { OrderRow } from './OrderRow.tsx'
import { useReloadEffect } from '../../../renderer/ui/useReloadEffect.ts'
import { SelectField } from '../../../renderer/ui/SelectField.tsx'

// The spec's four, then what money safety adds: expired prompts and money given back.
const STATUSES = ['PENDING', 'IN_PROGRESS', 'SUCCESS', 'FAILED', 'EXPIRED', 'REFUNDED', 'REVERSED']
const TYPES = [
  { value: 'all', label: 'All Orders' },
  { value: 'agent', label: 'Agent Orders' },
  { value: 'direct', label: 'Direct Customers' }
]
const SIZES = [10, 20, 50, 100]

const DELIVERY = [
  { value: 'ALL', label: 'All' },
  { value: 'NOT_STARTED', label: 'Not started' },
  { value: 'QUEUED', label: 'Queued' },
  { value: 'PROCESSING', label: 'Processing' },
  { value: 'DELIVERED', label: 'Delivered' },
  { value: 'MANUAL', label: 'Delivered (manual)' },
  { value: 'FAILED', label: 'Failed' }
]

interface Filters {
  history: boolean
  network: string
  paymentStatus: string
  deliveryStatus: string
  orderType: string
  limit: number
  search: string
  batchId: string
}
const DEFAULTS: Filters = { history: false, network: 'ALL', paymentStatus: 'ALL', deliveryStatus: 'ALL', orderType: 'all', limit: 20, search: '', batchId: '' }

function query(f: Filters, page: number) {
  const p = new URLSearchParams({ page: String(page), limit: String(f.limit) })
  if (f.history) p.set('includeExported', 'true')
  if (f.network !== 'ALL') p.set('network', f.network)
  if (f.paymentStatus !== 'ALL') p.set('paymentStatus', f.paymentStatus)
  if (f.deliveryStatus !== 'ALL') p.set('deliveryStatus', f.deliveryStatus)
  if (f.orderType !== 'all') p.set('orderType', f.orderType)
  if (f.search.trim()) p.set('search', f.search.trim())
  if (f.batchId) p.set('batchId', f.batchId)
  return p.toString()
}

export default function Page() {
  const initial = (usePageContext() as unknown as { data?: OrdersData }).data
  const toast = useToast()
  const [filters, setFilters] = useState<Filters>({ ...DEFAULTS, deliveryStatus: initial?.deliveryStatus ?? 'ALL', batchId: initial?.batchId ?? '' })
  const [searchInput, setSearchInput] = useState('')
  const [page, setPage] = useState(1)
  const [orders, setOrders] = useState<AdminOrder[]>(initial?.orders ?? [])
  const [pagination, setPagination] = useState<Pagination | null>(initial?.pagination ?? null)
  const [loading, setLoading] = useState(!initial?.pagination)
  const [exporting, setExporting] = useState(false)
  const [busy, setBusy] = useState<Set<number>>(new Set())
  const seq = useRef(0)

  const load = useCallback(
    async (f: Filters, p: number) => {
      const mine = ++seq.current
      setLoading(true)
      try {
        const res = await api<{ orders: AdminOrder[]; pagination: Pagination }>(`/api/orders?${query(f, p)}`)
        if (mine !== seq.current) return
        setOrders(res.orders)
        setPagination(res.pagination)
      } catch (err) {
        if (mine === seq.current) toast(err instanceof ApiError ? err.message : 'Failed to load orders', 'error')
      } finally {
        if (mine === seq.current) setLoading(false)
      }
    },
    [toast]
  )

  useReloadEffect(() => load(filters, page), [filters, page, load], !!initial?.pagination)

  // The search runs on the server over the whole table, shortly after typing stops.
  useEffect(() => {
    if (searchInput === filters.search) return
    const t = setTimeout(() => change({ search: searchInput }), 300)
    return () => clearTimeout(t)
  }, [searchInput]) // eslint-disable-line react-hooks/exhaustive-deps

  /** Any filter change or the history toggle goes back to page 1 (spec section 4). */
  function change(next: Partial<Filters>) {
    setFilters((f) => ({ ...f, ...next }))
    setPage(1)
  }

  async function markDelivered(order: AdminOrder) {
    setBusy((b) => new Set(b).add(order.id))
    try {
      const res = await api<{ order: AdminOrder }>(`/api/orders/${order.id}/delivered`, { method: 'PATCH' })
      setOrders((list) => list.map((o) => (o.id === order.id ? res.order : o)))
    } catch (err) {
      toast(err instanceof ApiError ? err.message : 'Failed to mark order delivered', 'error')
    } finally {
      setBusy((b) => {
        const n = new Set(b)
        n.delete(order.id)
        return n
      })
    }
  }

  async function retryDelivery(order: AdminOrder) {
    setBusy((b) => new Set(b).add(order.id))
    try {
      const res = await api<{ order: AdminOrder }>(`/api/orders/${order.id}/retry-delivery`, { method: 'POST' })
      setOrders((list) => list.map((o) => (o.id === order.id ? res.order : o)))
      toast('Delivery queued again', 'success')
    } catch (err) {
      toast(err instanceof ApiError ? err.message : 'Failed to retry delivery', 'error')
    } finally {
      setBusy((b) => {
        const n = new Set(b)
        n.delete(order.id)
        return n
      })
    }
  }

  async function exportAll() {
    setExporting(true)
    try {
      await download('/api/orders/export', { method: 'POST', filename: `orders_export_${new Date().toISOString().slice(0, 10)}.csv` })
      toast('Orders exported successfully!', 'success')
      await load(filters, 1)
      setPage(1)
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) toast('No orders available for export', 'info')
      else toast('Export failed', 'error')
    } finally {
      setExporting(false)
    }
  }

  const history = filters.history
  const total = pagination?.total ?? 0
  const totalPages = pagination?.totalPages ?? 1
  // Past 2,000 matches the server returns an estimate rather than counting every row.
  const about = pagination && !pagination.exact ? 'about ' : ''
  const active: string[] = []
  if (filters.network !== 'ALL') active.push(`Network: ${NETWORK_LABEL[filters.network]}`)
  if (filters.paymentStatus !== 'ALL') active.push(`Status: ${statusOf(filters.paymentStatus).label}`)
  if (filters.deliveryStatus !== 'ALL') active.push(`Delivery: ${DELIVERY.find((d) => d.value === filters.deliveryStatus)!.label}`)
  if (filters.orderType !== 'all') active.push(TYPES.find((t) => t.value === filters.orderType)!.label)
  if (filters.search.trim()) active.push(`Search: "${filters.search.trim()}"`)
  if (filters.batchId) active.push(`Bulk order #${filters.batchId}`)
  const filtered = active.length > 0

  return (
    <section className="ops-page">
      <div className="level is-mobile mb-3" style={{ flexWrap: 'wrap', gap: '.5rem' }}>
        <div className="level-left">
          <h1 className="title is-4">{history ? 'Exported Orders History' : 'Active Orders'}</h1>
        </div>
        <div className="level-right buttons mb-0">
          <button className="button is-light" onClick={() => change({ history: !history })}>
            {history ? 'Show Active Orders' : 'Show Exported History'}
          </button>
          {history ? null : (
            <button className="button is-primary" disabled={exporting} onClick={exportAll} aria-busy={exporting}>
              {exporting ? 'Exporting...' : 'Export All Orders'}
            </button>
          )}
        </div>
      </div>

      {history ? null : (
        <div className="notification is-info is-light">
          <strong>Export &amp; Clear Orders:</strong> 'Export All Orders' downloads a CSV of the pending orders (paid and not yet delivered), marks them as
          delivered and moves them to the exported history. Orders being delivered automatically are left out.
        </div>
      )}

      <div className="box">
        <div className="columns is-multiline is-variable is-2">
          <div className="column is-6-tablet is-3-desktop">
            <SelectField
              id="f-network"
              label="Network"
              value={filters.network}
              onChange={(v) => change({ network: v })}
              options={[{ value: 'ALL', label: 'All' }, ...Object.entries(NETWORK_LABEL).map(([value, label]) => ({ value, label }))]}
            />
          </div>
          <div className="column is-6-tablet is-3-desktop">
            <SelectField
              id="f-status"
              label="Payment status"
              value={filters.paymentStatus}
              onChange={(v) => change({ paymentStatus: v })}
              options={[{ value: 'ALL', label: 'All' }, ...STATUSES.map((value) => ({ value, label: statusOf(value).label }))]}
            />
          </div>
          <div className="column is-6-tablet is-3-desktop">
            <SelectField id="f-delivery" label="Delivery" value={filters.deliveryStatus} onChange={(v) => change({ deliveryStatus: v })} options={DELIVERY} />
          </div>
          <div className="column is-6-tablet is-3-desktop">
            <SelectField id="f-type" label="Order type" value={filters.orderType} onChange={(v) => change({ orderType: v })} options={TYPES} />
          </div>
          <div className="column is-6-tablet is-3-desktop">
            <SelectField id="f-size" label="Per page" value={filters.limit} onChange={(v) => change({ limit: Number(v) })} options={SIZES} />
          </div>
        </div>
        <form
          className="field has-addons mb-1"
          role="search"
          onSubmit={(e) => {
            e.preventDefault()
            change({ search: searchInput })
          }}>
          <div className="control is-expanded">
            <label className="is-sr-only" htmlFor="f-search">
              Search orders
            </label>
            <input
              id="f-search"
              className="input is-small"
              type="search"
              placeholder="Search orders, numbers, agents, status..."
              value={searchInput}
              onChange={(e) => setSearchInput(e.target.value)}
            />
          </div>
          <div className="control">
            <button
              type="button"
              className="button is-small"
              disabled={!searchInput && !filters.search}
              onClick={() => {
                setSearchInput('')
                change({ search: '' })
              }}>
              Clear
            </button>
          </div>
        </form>
        {filters.search.trim() ? (
          <p className="help" aria-live="polite">
            {about}
            {countText(total)} result{total === 1 ? '' : 's'} found
          </p>
        ) : null}
      </div>

      <div className="box ops-summary py-3" aria-live="polite">
        <span>
          <strong>{history ? 'Exported' : 'Total'}:</strong> {about}
          {countText(total)} orders
        </span>
        {filtered ? (
          <span>
            <strong>Filters:</strong> {active.join(', ')}
          </span>
        ) : null}
        <span>
          Page {pagination?.page ?? page} of {about}
          {countText(totalPages)}
        </span>
      </div>

      {loading ? (
        <div aria-busy="true" aria-label="Loading orders">
          {Array.from({ length: 6 }, (_, i) => (
            <div key={i} className="ops-skeleton mb-3" />
          ))}
        </div>
      ) : orders.length === 0 ? (
        <div className="box has-text-centered" data-empty>
          {history ? (
            <p>No exported orders found.</p>
          ) : filtered ? (
            <p>No orders match the current filters.</p>
          ) : (
            <>
              <p className="has-text-weight-semibold">No active orders available.</p>
              <p className="has-text-grey">All orders may have been exported already.</p>
            </>
          )}
        </div>
      ) : (
        <div className="table-container" tabIndex={0} role="region" aria-label="Orders table" /* wider than the screen: keyboard-scrollable */>
          <table className="table is-stacked-mobile is-fullwidth is-striped is-hoverable is-narrow ops-table">
            <thead>
              <tr>
                <th>Recipient</th>
                <th>Network</th>
                <th>Size</th>
                <th>Amount</th>
                <th>Agent</th>
                <th>Payment Status</th>
                <th>Transaction ID</th>
                <th>{history ? 'Exported At' : 'Date'}</th>
                {history ? null : (
                  <>
                    <th>Delivery</th>
                    <th>Actions</th>
                  </>
                )}
              </tr>
            </thead>
            <tbody>
              {orders.map((o) => (
                <OrderRow
                  key={o.id}
                  order={o}
                  history={history}
                  busy={busy.has(o.id)}
                  onDelivered={markDelivered}
                  onRetry={retryDelivery}
                  onRefunded={(r) => setOrders((list) => list.map((x) => (x.id === r.id ? r : x)))}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} totalPages={totalPages} onPage={setPage} label="Orders pages" />
    </section>
  )
}
