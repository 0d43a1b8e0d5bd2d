import { useState } from 'react'
import { NETWORK_LABEL } from '../../../renderer/format.ts'
import { formatCedis, ghsFixed, roundGhs } from '../../../server/lib/money.ts'
import type { SubAgentPriceLine } from '../../../server/services/sub-agents/index.ts'
import { usePriceSave } from '../_shared/usePriceSave.ts'

/** What the parent's sub-agents pay per bundle: between its own price and the maximum; empty = the standard agent price. */
export function SubAgentPrices({ lines }: { lines: SubAgentPriceLine[] }) {
  const textOf = (l: SubAgentPriceLine) => (l.saved === null ? '' : ghsFixed(l.saved))
  const [rows, setRows] = useState(() => lines.map((l) => ({ ...l, text: textOf(l) })))
  const {
    save: put,
    saving,
    error
  } = usePriceSave<SubAgentPriceLine>('/api/sub-agents/mine/prices', (next) => setRows(next.map((l) => ({ ...l, text: textOf(l) }))))
  const save = () => put(rows.map((r) => ({ packageId: r.packageId, price: r.text.trim() === '' ? null : Number(r.text) })))

  if (!rows.length) return <p className="notification is-light">No bundles are on sale right now.</p>
  return (
    <div className="box">
      <h2 className="title is-5" id="sub-prices-title">
        What your sub-agents pay
      </h2>
      <p className="mb-3">
        Set a price between your own price and the maximum; leave it empty for the standard agent price. You earn the difference when each bundle is delivered.
        Orders keep the price they were placed at.
      </p>
      {error ? (
        <div className="notification is-danger" role="alert" data-testid="sub-prices-error">
          {error}
        </div>
      ) : null}
      <div className="table-container">
        <table className="table is-fullwidth is-stacked-mobile" aria-labelledby="sub-prices-title">
          <thead>
            <tr>
              <th scope="col">Bundle</th>
              <th scope="col">Your price</th>
              <th scope="col">Maximum</th>
              <th scope="col">Their price (GH₵)</th>
              <th scope="col">You earn</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const empty = r.text.trim() === ''
              const value = Number(r.text)
              const valid = empty || (Number.isFinite(value) && value >= r.floor && value <= r.ceiling)
              const earn = empty ? r.margin : valid ? roundGhs(value - r.floor) : null
              const label = `${r.name} (${NETWORK_LABEL[r.network as keyof typeof NETWORK_LABEL] ?? r.network})`
              return (
                <tr key={r.packageId} data-testid={`sub-price-row-${r.packageId}`}>
                  <td data-label="Bundle">{label}</td>
                  <td data-label="Your price">{formatCedis(r.floor)}</td>
                  <td data-label="Maximum">{formatCedis(r.ceiling)}</td>
                  <td data-label="Their price (GH₵)">
                    <input
                      className={`input is-small${valid ? '' : ' is-danger'}`}
                      type="number"
                      inputMode="decimal"
                      step="0.01"
                      min={r.floor}
                      max={r.ceiling}
                      placeholder={ghsFixed(r.price)}
                      value={r.text}
                      onChange={(e) => setRows((rs) => rs.map((x) => (x.packageId === r.packageId ? { ...x, text: e.target.value } : x)))}
                      aria-label={`Sub-agent price for ${label}`}
                      aria-invalid={!valid}
                    />
                  </td>
                  <td data-label="You earn">{earn !== null ? formatCedis(earn) : <span className="has-text-danger">Out of range</span>}</td>
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
