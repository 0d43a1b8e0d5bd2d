import { useEffect, useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import type { PurchaseView } from '../../../server/services/vouchers/index.ts'
import { digitsOnly } from '../../_storefront/format.ts'
import { CardList } from '../_parts/CardList.tsx'

/** My checkers: the purchases this browser made, or one found by the paying phone and its transaction id. */
export default function Page() {
  const toast = useToast()
  const [mine, setMine] = useState<PurchaseView[] | null>(null)
  const [found, setFound] = useState<PurchaseView[] | null>(null)
  const [phone, setPhone] = useState('')
  const [transactionId, setTransactionId] = useState('')
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    api<{ purchases: PurchaseView[] }>('/api/vouchers/mine')
      .then((r) => setMine(r.purchases))
      .catch(() => setMine([]))
  }, [])

  async function lookup(e: React.FormEvent) {
    e.preventDefault()
    setBusy(true)
    try {
      setFound((await api<{ purchases: PurchaseView[] }>('/api/vouchers/lookup', { body: { phone, transactionId: transactionId.trim() } })).purchases)
    } catch (err) {
      toast(err instanceof ApiError ? err.message : 'Look-up failed', 'error')
    } finally {
      setBusy(false)
    }
  }

  async function resend(tid: string) {
    try {
      toast((await api<{ message: string }>(`/api/vouchers/orders/${tid}/resend`, { body: { phone } })).message, 'success')
    } catch (err) {
      toast(err instanceof ApiError ? err.message : 'Could not send the SMS', 'error')
    }
  }

  const list = (items: PurchaseView[]) =>
    items.map((p) => (
      <div key={p.transactionId}>
        <CardList purchase={p} />
        {p.cards.length ? (
          <button type="button" className="button is-small mb-4" onClick={() => resend(p.transactionId)}>
            Send the cards by SMS again
          </button>
        ) : null}
      </div>
    ))

  return (
    <section className="section">
      <div className="container" style={{ maxWidth: 640 }}>
        <h1 className="title">My checkers</h1>
        <h2 className="title is-5">Bought on this browser</h2>
        {mine === null ? <p>Loading...</p> : mine.length ? list(mine) : <p className="mb-4">None on this browser.</p>}
        <h2 className="title is-5 mt-5">Find a purchase</h2>
        <form onSubmit={lookup} className="box" aria-label="Find a purchase">
          <div className="field">
            <label className="label" htmlFor="lookup-phone">
              Phone number that paid
            </label>
            <div className="control">
              <input
                id="lookup-phone"
                className="input"
                inputMode="numeric"
                autoComplete="tel"
                value={phone}
                onChange={(e) => setPhone(digitsOnly(e.target.value))}
              />
            </div>
          </div>
          <div className="field">
            <label className="label" htmlFor="lookup-tid">
              Transaction ID
            </label>
            <div className="control">
              <input
                id="lookup-tid"
                className="input"
                inputMode="numeric"
                value={transactionId}
                onChange={(e) => setTransactionId(digitsOnly(e.target.value))}
              />
            </div>
          </div>
          <button type="submit" className={`button is-primary${busy ? ' is-loading' : ''}`}>
            Find
          </button>
        </form>
        <div aria-live="polite">
          {found === null ? null : found.length ? list(found) : <p data-testid="checkers-none">Nothing found for this phone number and transaction ID.</p>}
        </div>
      </div>
    </section>
  )
}
