import { useState } from 'react'
import { ghsFixed } from '../../../server/lib/money.ts'
import type { CheckerPriceLine } from '../../../server/services/shop-checkers/index.ts'
import { usePriceSave } from '../_shared/usePriceSave.ts'
import { PriceRow, PriceTable } from './PriceRow.tsx'

/** Per result-checker product: sell it in the shop or not, and at what price per card between the agent price and the product's shop ceiling. */
export function CheckerPricesEditor({ lines }: { lines: CheckerPriceLine[] }) {
  const withText = (ls: CheckerPriceLine[]) => ls.map((l) => ({ ...l, text: ghsFixed(l.price ?? l.floor) }))
  const [rows, setRows] = useState(() => withText(lines))
  const { save: put, saving, error } = usePriceSave<CheckerPriceLine>('/api/shops/mine/checkers', (next) => setRows(withText(next)))
  const set = (id: number, patch: Partial<(typeof rows)[number]>) => setRows((rs) => rs.map((r) => (r.productId === id ? { ...r, ...patch } : r)))
  const save = () => put(rows.map((r) => ({ productId: r.productId, price: r.listed ? Number(r.text) : null })))

  if (!rows.length) return null
  return (
    <div className="box" data-testid="checker-prices">
      <h2 className="title is-5" id="checker-prices-title">
        Result checkers
      </h2>
      <p className="mb-3">
        Tick the checkers your shop sells and set your price per card: at least your agent price, at most the maximum. You earn the margin on each card when the
        buyer's payment succeeds.
      </p>
      <PriceTable what="Checker" titleId="checker-prices-title" error={error} errorTestId="checker-prices-error">
        {rows.map((r) => (
          <PriceRow
            key={r.productId}
            r={r}
            what="Checker"
            label={r.inStock ? r.name : `${r.name} (out of stock)`}
            testId={`checker-price-row-${r.productId}`}
            onChange={(patch) => set(r.productId, patch)}
          />
        ))}
      </PriceTable>
      <button type="button" className={`button is-primary${saving ? ' is-loading' : ''}`} disabled={saving} onClick={save}>
        Save checker prices
      </button>
    </div>
  )
}
