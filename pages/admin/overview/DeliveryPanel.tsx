import { useEffect, useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { countText, formatCedis } from '../_ops/format.ts'
import type { DeliveryService } from '../../../server/services/delivery/index.ts'

type Overview = Awaited<ReturnType<DeliveryService['overview']>>
const VENDOR_LABEL: Record<string, string> = { simulator: 'Simulator', skytech: 'SkyTech GH' }

/** 'Needs attention' (failed deliveries) and each vendor's balance; read after the page shows, since a vendor may be slow. */
export function DeliveryPanel() {
  const [data, setData] = useState<Overview | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    api<Overview>('/api/delivery/overview').then(setData, (err) =>
      setError(err instanceof ApiError ? err.message : 'Delivery figures are not available right now')
    )
  }, [])

  if (error) return <div className="notification is-warning is-light">{error}</div>
  if (!data)
    return (
      <div className="box" aria-busy="true" aria-label="Loading delivery figures">
        <div className="ops-skeleton" />
      </div>
    )
  return (
    <div className="box" data-testid="delivery-panel">
      <h2 className="title is-5">Delivery</h2>
      <div className="columns is-mobile is-multiline">
        <div className="column is-6-mobile is-3-tablet">
          <p className="heading">Needs attention</p>
          <p className={`stat-value${data.needsAttention ? ' has-text-danger' : ''}`} data-testid="needs-attention">
            {countText(data.needsAttention)}
          </p>
          <p className="is-size-7">
            {data.needsAttention ? <a href="/admin/orders?deliveryStatus=FAILED">Failed deliveries: review and retry</a> : 'No failed deliveries'}
          </p>
        </div>
        <div className="column is-6-mobile is-3-tablet">
          <p className="heading">On their way</p>
          <p className="stat-value">{countText(data.inFlight)}</p>
          <p className="is-size-7">Mode: {data.mode === 'manual' ? 'Manual (CSV export)' : 'Automatic'}</p>
        </div>
        {data.balances.map((b) => (
          <div key={b.vendor} className="column is-12-mobile is-6-tablet">
            <p className="heading">{VENDOR_LABEL[b.vendor] ?? b.vendor} balance</p>
            <p className="stat-value">{b.balance === null ? '-' : formatCedis(b.balance)}</p>
            {b.error ? <p className="is-size-7 has-text-warning-dark">Balance unavailable: {b.error}</p> : null}
            {b.low ? (
              <p className="notification is-danger is-light py-2 px-3 is-size-7 mb-0" role="alert">
                Low balance: below {formatCedis(data.lowBalanceThreshold)}. Top up to keep deliveries going.
              </p>
            ) : null}
          </div>
        ))}
      </div>
    </div>
  )
}
