import { useState } from 'react'
import { formatCedis, ghsFixed, roundGhs } from '../../../server/lib/money.ts'
import type { PriceLine } from '../../../server/services/shops/index.ts'
import { NETWORK_LABEL } from '../../../renderer/format.ts'
import { usePriceSave } from '../_shared/usePriceSave.ts'

/** Per bundle: sell it or not, and at what price between the agent price and the admin's ceiling; the margin shows as you type. */
export function PricesEditor({ lines, limits }: { lines: PriceLine[]; limits: { maxMarkupType: string; maxMarkupValue: number } }) {
  const [rows, setRows] = useState(() => lines.map((l) => ({ ...l, text: ghsFixed(l.price ?? l.floor) })))
  const {
    save: put,
    saving,
    error
  } = usePriceSave<PriceLine>('/api/shops/mine/prices', (next) => setRows(next.map((l) => ({ ...l, text: ghsFixed(l.price ?? l.floor) }))))
  const set = (id: number, patch: Partial<(typeof rows)[number]>) => setRows((rs) => rs.map((r) => (r.packageId === id ? { ...r, ...patch } : r)))
  const save = () => put(rows.map((r) => ({ packageId: r.packageId, price: r.listed ? Number(r.text) : null })))

  if (!rows.length) return <p className="notification is-light">No bundles are on sale right now.</p>
  return (
    <div className="box">
      <h2 className="title is-5" id="prices-title">
        Prices
      </h2>
      <p className="mb-3">
        Tick the bundles your shop sells and set your price: at least your agent price, at most{' '}
        {limits.maxMarkupType === 'FIXED' ? `${formatCedis(limits.maxMarkupValue)} above it` : `${limits.maxMarkupValue}% above it`}. You earn the margin when
        the bundle is delivered.
      </p>
      {error ? (
        <div className="notification is-danger" role="alert" data-testid="prices-error">
          {error}
        </div>
      ) : null}
      <div className="table-container">
        <table className="table is-fullwidth is-stacked-mobile" aria-labelledby="prices-title">
          <thead>
            <tr>
              <th scope="col">Sell</th>
              <th scope="col">Bundle</th>
              <th scope="col">Agent price</th>
              <th scope="col">Maximum</th>
              <th scope="col">Your price (GH₵)</th>
              <th scope="col">Margin</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const value = Number(r.text)
              const valid = r.text.trim() !== '' && Number.isFinite(value) && value >= r.floor && value <= r.ceiling
              const margin = valid ? roundGhs(value - r.floor) : null
              const label = `${r.name} (${NETWORK_LABEL[r.network] ?? r.network})`
              return (
                <tr key={r.packageId} data-testid={`price-row-${r.packageId}`}>
                  <td data-label="Sell">
                    <input type="checkbox" checked={r.listed} onChange={(e) => set(r.packageId, { listed: e.target.checked })} aria-label={`Sell ${label}`} />
                  </td>
                  <td data-label="Bundle">{label}</td>
                  <td data-label="Agent price">{formatCedis(r.floor)}</td>
                  <td data-label="Maximum">{formatCedis(r.ceiling)}</td>
                  <td data-label="Your price (GH₵)">
                    <input
                      className={`input is-small shop-price-input${r.listed && !valid ? ' is-danger' : ''}`}
                      type="number"
                      inputMode="decimal"
                      step="0.01"
                      min={r.floor}
                      max={r.ceiling}
                      value={r.text}
                      disabled={!r.listed}
                      onChange={(e) => set(r.packageId, { text: e.target.value })}
                      aria-label={`Your price for ${label}`}
                      aria-invalid={r.listed && !valid}
                    />
                    {r.listed && r.saved !== null && r.price !== null && r.saved !== r.price ? (
                      <p className="help is-warning-text">
                        Sold at {formatCedis(r.price)}: the limits changed since you saved {formatCedis(r.saved)}.
                      </p>
                    ) : null}
                  </td>
                  <td data-label="Margin">{r.listed ? margin !== null ? formatCedis(margin) : <span className="has-text-danger">Out of range</span> : '-'}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
      <button type="button" className={`button is-primary${saving ? ' is-loading' : ''}`} disabled={saving} onClick={save}>
        Save prices
      </button>
    </div>
  )
}
