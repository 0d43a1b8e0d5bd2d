import type { ReactNode } from 'react'
import { formatCedis, roundGhs } from '../../../server/lib/money.ts'
import type { ShopPriceFields } from '../../../server/services/shops/rules.ts'

/** A line of a shop price editor as typed: the server's fields and the text in the price box. */
export type EditedPrice = ShopPriceFields & { text: string }

/** A shop price editor's table (its rows are `PriceRow`s) under the save error, if any; `what` names the thing sold (Bundle, Checker). */
export function PriceTable({
  what,
  titleId,
  error,
  errorTestId,
  children
}: {
  what: string
  titleId: string
  error: string | null
  errorTestId: string
  children: ReactNode
}) {
  return (
    <>
      {error ? (
        <div className="notification is-danger" role="alert" data-testid={errorTestId}>
          {error}
        </div>
      ) : null}
      <div className="table-container">
        <table className="table is-fullwidth is-stacked-mobile" aria-labelledby={titleId}>
          <thead>
            <tr>
              <th scope="col">Sell</th>
              <th scope="col">{what}</th>
              <th scope="col">Agent price</th>
              <th scope="col">Maximum</th>
              <th scope="col">Your price (GH₵)</th>
              <th scope="col">Margin</th>
            </tr>
          </thead>
          <tbody>{children}</tbody>
        </table>
      </div>
    </>
  )
}

/** One thing the shop may sell: tick it, type a price between the agent price and the maximum, and see the margin as you type. */
export function PriceRow({
  r,
  what,
  label,
  testId,
  onChange
}: {
  r: EditedPrice
  what: string
  label: string
  testId: string
  onChange: (patch: Partial<EditedPrice>) => void
}) {
  const value = Number(r.text)
  const valid = r.text.trim() !== '' && Number.isFinite(value) && value >= r.floor && value <= r.ceiling
  const margin = valid ? roundGhs(value - r.floor) : null
  return (
    <tr data-testid={testId}>
      <td data-label="Sell">
        <input type="checkbox" checked={r.listed} onChange={(e) => onChange({ listed: e.target.checked })} aria-label={`Sell ${label}`} />
      </td>
      <td data-label={what}>{label}</td>
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
          onChange={(e) => onChange({ text: e.target.value })}
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
}
