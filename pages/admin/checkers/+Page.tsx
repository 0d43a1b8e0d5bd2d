import { useEffect, useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { formatCedis } from '../../../server/lib/money.ts'
import type { AdminProductView } from '../../../server/services/vouchers/index.ts'
import { draftOf, ProductForm, type ProductDraft } from './ProductForm.tsx'
import { StockUpload } from './StockUpload.tsx'

type Sold = { id: number; product: string; serial: string; pin: string; soldAt: string; transactionId: string; buyer: string }

/** Admin: checker products and their stock, card uploads, sold cards (PINs masked), voiding an unsold card. */
export default function Page() {
  const toast = useToast()
  const [products, setProducts] = useState<AdminProductView[] | null>(null)
  const [sold, setSold] = useState<Sold[]>([])
  const [editing, setEditing] = useState<AdminProductView | 'new' | null>(null)
  const [busy, setBusy] = useState(false)
  const [version, setVersion] = useState(0)
  const [voidSerial, setVoidSerial] = useState('')

  useEffect(() => {
    api<{ products: AdminProductView[] }>('/api/vouchers/admin/products')
      .then((r) => setProducts(r.products))
      .catch(() => setProducts([]))
    api<{ cards: Sold[] }>('/api/vouchers/admin/sold?limit=50')
      .then((r) => setSold(r.cards))
      .catch(() => setSold([]))
  }, [version])

  async function run(fn: () => Promise<string>) {
    setBusy(true)
    try {
      toast(await fn(), 'success')
      setVersion((v) => v + 1)
      return true
    } catch (err) {
      toast(err instanceof ApiError ? err.message : 'Something went wrong', 'error')
      return false
    } finally {
      setBusy(false)
    }
  }

  const save = (d: ProductDraft) =>
    run(async () => {
      const body = { ...d, priceAgent: d.priceAgent || null, shopCeiling: d.shopCeiling || null }
      if (editing && editing !== 'new') await api(`/api/vouchers/admin/products/${editing.id}`, { method: 'PUT', body })
      else await api('/api/vouchers/admin/products', { body })
      setEditing(null)
      return 'Product saved'
    })

  const upload = (body: { productId: number; format: string; content: string }) =>
    run(async () => {
      const r = await api<{ added: number; available: number }>('/api/vouchers/admin/stock', { body })
      return `${r.added} cards added; ${r.available} available`
    })

  async function voidCard(e: React.FormEvent) {
    e.preventDefault()
    for (const p of products ?? []) {
      const found = await api<{ cards: { id: number; serial: string; status: string }[] }>(
        `/api/vouchers/admin/products/${p.id}/cards?serial=${encodeURIComponent(voidSerial)}`
      )
      const card = found.cards.find((c) => c.serial === voidSerial.trim() && c.status === 'AVAILABLE')
      if (card)
        return void run(
          async () => (await api<{ message: string }>(`/api/vouchers/admin/cards/${card.id}/void`, { body: { reason: 'Voided by an admin' } })).message
        )
    }
    toast('No unsold card with this serial', 'error')
  }

  return (
    <section>
      <h1 className="title">Result checkers</h1>
      {products === null ? (
        <p>Loading...</p>
      ) : (
        <div className="table-container">
          <table className="table is-fullwidth is-striped">
            <caption className="is-sr-only">Checker products and their stock</caption>
            <thead>
              <tr>
                <th scope="col">Product</th>
                <th scope="col">User / agent price</th>
                <th scope="col">Available</th>
                <th scope="col">Sold</th>
                <th scope="col">Expired</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="is-sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {products.map((p) => (
                <tr key={p.id}>
                  <td>{p.name}</td>
                  <td>
                    {formatCedis(p.priceUser)} / {p.priceAgent === null ? '—' : formatCedis(p.priceAgent)}
                  </td>
                  <td className={p.stock.available <= p.lowStockThreshold ? 'has-text-danger' : ''}>{p.stock.available}</td>
                  <td>{p.stock.sold}</td>
                  <td>{p.stock.expired}</td>
                  <td>{p.active ? 'On sale' : 'Off'}</td>
                  <td>
                    <button type="button" className="button is-small" onClick={() => setEditing(p)}>
                      Edit
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing ? (
        <ProductForm
          key={editing === 'new' ? 'new' : editing.id}
          initial={draftOf(editing === 'new' ? undefined : editing)}
          busy={busy}
          onSave={save}
          onCancel={() => setEditing(null)}
        />
      ) : (
        <button type="button" className="button is-primary mb-4" onClick={() => setEditing('new')}>
          New product
        </button>
      )}
      {products?.length ? <StockUpload products={products} busy={busy} onUpload={upload} /> : null}
      <form className="box" aria-label="Void a card" onSubmit={voidCard}>
        <label className="label" htmlFor="void-serial">
          Void an unsold card (it is never sold afterwards)
        </label>
        <div className="field has-addons">
          <div className="control is-expanded">
            <input id="void-serial" className="input" placeholder="Serial" value={voidSerial} onChange={(e) => setVoidSerial(e.target.value)} />
          </div>
          <div className="control">
            <button type="submit" className="button is-danger" disabled={!voidSerial.trim()}>
              Void
            </button>
          </div>
        </div>
      </form>
      <h2 className="title is-5">Sold cards</h2>
      <div className="table-container">
        <table className="table is-fullwidth is-narrow">
          <caption className="is-sr-only">Sold cards, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Product</th>
              <th scope="col">Serial</th>
              <th scope="col">PIN</th>
              <th scope="col">Buyer</th>
              <th scope="col">Transaction</th>
            </tr>
          </thead>
          <tbody>
            {sold.length ? (
              sold.map((c) => (
                <tr key={c.id}>
                  <td>{new Date(c.soldAt).toLocaleString()}</td>
                  <td>{c.product}</td>
                  <td>{c.serial}</td>
                  <td className="is-family-monospace">{c.pin}</td>
                  <td>{c.buyer}</td>
                  <td>{c.transactionId}</td>
                </tr>
              ))
            ) : (
              <tr>
                <td colSpan={6}>No cards sold yet.</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  )
}
