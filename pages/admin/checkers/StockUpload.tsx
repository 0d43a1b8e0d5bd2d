import { useState } from 'react'
import type { AdminProductView } from '../../../server/services/vouchers/index.ts'

/** Cards by paste (serial, PIN, optional expiry per line), or a .csv / .xlsx file. */
export function StockUpload(props: {
  products: AdminProductView[]
  busy: boolean
  onUpload(body: { productId: number; format: string; content: string }): void
}) {
  const [productId, setProductId] = useState(props.products[0]?.id ?? 0)
  const [content, setContent] = useState('')
  const [file, setFile] = useState<File | null>(null)

  async function submit(e: React.FormEvent) {
    e.preventDefault()
    if (file) {
      const xlsx = /\.xlsx$/i.test(file.name)
      const body = xlsx ? btoa(String.fromCharCode(...new Uint8Array(await file.arrayBuffer()))) : await file.text()
      return props.onUpload({ productId, format: xlsx ? 'xlsx' : 'csv', content: body })
    }
    props.onUpload({ productId, format: 'paste', content })
  }

  return (
    <form className="box" aria-label="Upload cards" onSubmit={submit}>
      <div className="field">
        <label className="label" htmlFor="stock-product">
          Product
        </label>
        <div className="control">
          <div className="select">
            <select id="stock-product" value={productId} onChange={(e) => setProductId(Number(e.target.value))}>
              {props.products.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </div>
        </div>
      </div>
      <div className="field">
        <label className="label" htmlFor="stock-paste">
          Paste cards: serial, PIN, expiry (optional), one per line
        </label>
        <div className="control">
          <textarea
            id="stock-paste"
            className="textarea is-family-monospace"
            rows={5}
            value={content}
            onChange={(e) => setContent(e.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
        </div>
      </div>
      <div className="field">
        <label className="label" htmlFor="stock-file">
          Or a file (.csv or .xlsx)
        </label>
        <div className="control">
          <input id="stock-file" type="file" accept=".csv,.xlsx,text/csv" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </div>
      </div>
      <button type="submit" className={`button is-primary${props.busy ? ' is-loading' : ''}`} disabled={!productId}>
        Upload cards
      </button>
    </form>
  )
}
