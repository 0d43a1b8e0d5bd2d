import { useState } from 'react'
import { api, ApiError } from '../../renderer/api.ts'
import { useToast } from '../../renderer/ui/Toasts.tsx'
import { usePageContext } from '../../renderer/usePageContext.tsx'
import type { PaymentView } from '../../server/services/payments/index.ts'
import type { PurchaseView } from '../../server/services/vouchers/index.ts'
import { EMAIL_RE, formatCedis } from '../_storefront/format.ts'
import { PayerFields } from '../_storefront/PayerFields.tsx'
import '../_storefront/storefront.css'
import type { CheckersData } from './+data.ts'
import { CardList } from './_parts/CardList.tsx'

const MAX = 10

/** Result checkers: pick a card and how many, pay by mobile money (or card), and read the cards here once paid. */
export default function Page() {
  const toast = useToast()
  const { data, settings, user } = usePageContext() as ReturnType<typeof usePageContext> & { data: CheckersData }
  // An approved agent sees the agent price and may pay from the wallet: paid and handed over at once.
  const agent = user?.role === 'AGENT' && !!user.agent?.approved
  const { products, card } = data
  const [productId, setProductId] = useState(products.find((p) => p.inStock)?.id ?? 0)
  const [quantity, setQuantity] = useState(1)
  const [payerPhone, setPayerPhone] = useState('')
  const [payerNetwork, setPayerNetwork] = useState('MTN')
  const [email, setEmail] = useState('')
  const [busy, setBusy] = useState(false)
  const [tid, setTid] = useState<string | null>(null)
  const [purchase, setPurchase] = useState<PurchaseView | null>(null)
  const product = products.find((p) => p.id === productId)
  const closed = settings.platformOpen === false

  async function buy(e: React.FormEvent) {
    e.preventDefault()
    if (!product) return toast('Choose a checker', 'error')
    if (card && !EMAIL_RE.test(email.trim().toLowerCase())) return toast('Please enter a valid email address for payment', 'error')
    if (!card && payerPhone.length < 9) return toast('Please enter a valid phone number', 'error')
    setBusy(true)
    try {
      const res = await api<PaymentView>('/api/vouchers/orders', {
        body: { productId, quantity, ...(card ? { email: email.trim().toLowerCase(), payFrom: 'card' } : { payerPhone, payerNetwork, payFrom: 'momo' }) },
        fallbackError: 'Payment request failed'
      })
      if (res.authorizationUrl && res.paymentStatus !== 'FAILED') {
        window.location.href = res.authorizationUrl
        return
      }
      if (res.paymentStatus === 'FAILED') return toast(res.message || 'Payment request failed', 'error')
      setTid(res.transactionId)
      setPurchase(null)
      toast('Payment prompt sent. Approve it on your phone, then check the payment here.', 'info')
    } catch (err) {
      toast(err instanceof ApiError ? err.message : 'Payment request failed', 'error')
    } finally {
      setBusy(false)
    }
  }

  async function payFromWallet() {
    if (!product) return toast('Choose a checker', 'error')
    setBusy(true)
    try {
      const r = await api<{ purchase: PurchaseView }>('/api/vouchers/orders', {
        body: { productId, quantity, payFrom: 'wallet' },
        fallbackError: 'Payment failed'
      })
      setTid(r.purchase.transactionId)
      setPurchase(r.purchase)
      toast('Paid from your wallet.', 'success')
    } catch (err) {
      toast(err instanceof ApiError ? err.message : 'Payment failed', 'error')
    } finally {
      setBusy(false)
    }
  }

  async function check() {
    if (!tid) return
    setBusy(true)
    try {
      const r = await api<{ purchase: PurchaseView }>(`/api/vouchers/orders/${tid}`)
      setPurchase(r.purchase)
      if (r.purchase.paymentStatus === 'PENDING' || r.purchase.paymentStatus === 'IN_PROGRESS') toast('Still waiting for your approval on the phone.', 'info')
    } catch (err) {
      toast(err instanceof ApiError ? err.message : 'Could not check the payment', 'error')
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="section">
      <div className="container" style={{ maxWidth: 640 }}>
        <h1 className="title">Result Checkers</h1>
        <p className="subtitle is-6">
          WASSCE, BECE and placement checker cards. Your serial and PIN appear here and come by SMS. <a href="/checkers/mine">My checkers</a>
        </p>
        {closed ? <p className="notification is-warning">Purchases are temporarily disabled.</p> : null}
        {!products.length ? (
          <p className="notification is-info is-light">No checkers on sale right now.</p>
        ) : (
          <form onSubmit={buy} className="box" aria-label="Buy result checkers">
            <fieldset className="field">
              <legend className="label">Checker</legend>
              {products.map((p) => (
                <label key={p.id} className="radio is-block my-1">
                  <input type="radio" name="product" value={p.id} checked={p.id === productId} disabled={!p.inStock} onChange={() => setProductId(p.id)} />{' '}
                  {p.name} · {formatCedis(p.price)}
                  {p.inStock ? '' : ' · out of stock'}
                </label>
              ))}
            </fieldset>
            <div className="field">
              <label className="label" htmlFor="checker-quantity">
                How many cards (1-{MAX})
              </label>
              <div className="control">
                <input
                  id="checker-quantity"
                  className="input"
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={MAX}
                  value={quantity}
                  onChange={(e) => setQuantity(Math.max(1, Math.min(MAX, Number(e.target.value) || 1)))}
                />
              </div>
            </div>
            {card ? (
              <div className="field">
                <label className="label" htmlFor="checker-email">
                  Email for payment
                </label>
                <div className="control">
                  <input id="checker-email" className="input" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
                </div>
              </div>
            ) : (
              <PayerFields idPrefix="checker" phone={payerPhone} network={payerNetwork} onPhone={setPayerPhone} onNetwork={setPayerNetwork} />
            )}
            <p className="mb-3">
              Total: <strong data-testid="checker-total">{formatCedis((product?.price ?? 0) * quantity)}</strong>
            </p>
            <button
              type="submit"
              className={`button is-primary is-fullwidth${busy && !tid ? ' is-loading' : ''}`}
              disabled={busy || closed || !product?.inStock}>
              Pay
            </button>
            {agent ? (
              <button type="button" className="button is-link is-fullwidth mt-2" disabled={busy || closed || !product?.inStock} onClick={payFromWallet}>
                Pay from wallet
              </button>
            ) : null}
          </form>
        )}
        {tid ? (
          <div className="box" role="status" aria-live="polite">
            <p className="mb-2">
              Payment reference: <strong>{tid}</strong>
            </p>
            {purchase?.cards.length ? null : (
              <button type="button" className={`button is-link${busy ? ' is-loading' : ''}`} onClick={check}>
                I have approved: show my cards
              </button>
            )}
            {purchase ? <CardList purchase={purchase} /> : null}
          </div>
        ) : null}
      </div>
    </section>
  )
}
