import { useState } from 'react'
import type { AdminProductView } from '../../../server/services/vouchers/index.ts'

export type ProductDraft = {
  name: string
  howToUse: string
  checkingUrl: string
  priceUser: string
  priceAgent: string
  shopCeiling: string
  lowStockThreshold: string
  active: boolean
}

export const draftOf = (p?: AdminProductView): ProductDraft => ({
  name: p?.name ?? '',
  howToUse: p?.howToUse ?? '',
  checkingUrl: p?.checkingUrl ?? '',
  priceUser: p ? String(p.priceUser) : '',
  priceAgent: p?.priceAgent === null || p?.priceAgent === undefined ? '' : String(p.priceAgent),
  shopCeiling: p?.shopCeiling === null || p?.shopCeiling === undefined ? '' : String(p.shopCeiling),
  lowStockThreshold: String(p?.lowStockThreshold ?? 10),
  active: p?.active ?? true
})

/** A checker product's fields; the server checks them again (prices in GHS). */
export function ProductForm(props: { initial: ProductDraft; busy: boolean; onSave(d: ProductDraft): void; onCancel?(): void }) {
  const [d, setD] = useState(props.initial)
  const text = (key: keyof ProductDraft, label: string, extra: Record<string, string> = {}) => (
    <div className="field">
      <label className="label" htmlFor={`product-${key}`}>
        {label}
      </label>
      <div className="control">
        <input id={`product-${key}`} className="input" value={String(d[key])} onChange={(e) => setD({ ...d, [key]: e.target.value })} {...extra} />
      </div>
    </div>
  )
  return (
    <form
      className="box"
      aria-label="Checker product"
      onSubmit={(e) => {
        e.preventDefault()
        props.onSave(d)
      }}>
      {text('name', 'Name (e.g. BECE checker)')}
      {text('howToUse', 'How to use')}
      {text('checkingUrl', 'Official checking site', { type: 'url', placeholder: 'https://' })}
      <div className="columns is-mobile is-multiline">
        <div className="column is-6-mobile is-3-tablet">{text('priceUser', 'User price (GHS)', { inputMode: 'decimal' })}</div>
        <div className="column is-6-mobile is-3-tablet">{text('priceAgent', 'Agent price (GHS)', { inputMode: 'decimal' })}</div>
        <div className="column is-6-mobile is-3-tablet">{text('shopCeiling', 'Agent-shop ceiling (GHS)', { inputMode: 'decimal' })}</div>
        <div className="column is-6-mobile is-3-tablet">{text('lowStockThreshold', 'Low-stock alert at', { inputMode: 'numeric' })}</div>
      </div>
      <label className="checkbox mb-3 is-block">
        <input type="checkbox" checked={d.active} onChange={(e) => setD({ ...d, active: e.target.checked })} /> On sale
      </label>
      <div className="buttons">
        <button type="submit" className={`button is-primary${props.busy ? ' is-loading' : ''}`}>
          Save product
        </button>
        {props.onCancel ? (
          <button type="button" className="button" onClick={props.onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  )
}
