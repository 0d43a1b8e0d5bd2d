import { useState } from 'react'
import { formatCedis, ghsFixed } from '../../../server/lib/money.ts'
import type { PriceLine } from '../../../server/services/shops/index.ts'
import { NETWORK_LABEL } from '../../../renderer/format.ts'
import { usePriceSave } from '../_shared/usePriceSave.ts'
import { PriceRow, PriceTable } from './PriceRow.tsx'

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
      <PriceTable what="Bundle" titleId="prices-title" error={error} errorTestId="prices-error">
        {rows.map((r) => {
          const label = `${r.name} (${NETWORK_LABEL[r.network] ?? r.network})`
          return (
            <PriceRow key={r.packageId} r={r} what="Bundle" label={label} testId={`price-row-${r.packageId}`} onChange={(patch) => set(r.packageId, patch)} />
          )
        })}
      </PriceTable>
      <button type="button" className={`button is-primary${saving ? ' is-loading' : ''}`} disabled={saving} onClick={save}>
        Save prices
      </button>
    </div>
  )
}
