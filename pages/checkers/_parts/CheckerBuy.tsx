import { useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import type { PaymentView } from '../../../server/services/payments/index.ts'
import type { PublicProductView, PurchaseView } from '../../../server/services/vouchers/index.ts'
import { EMAIL_RE, formatCedis } from '../../_storefront/format.ts'
import { PayerFields } from '../../_storefront/PayerFields.tsx'
import { CardList } from './CardList.tsx'

const MAX = 10

/**
 * Pick a checker and how many, pay by mobile money (or card), and read the cards here once paid. An
 * agent's shop sells through the same form: its products carry the shop's price, the purchase goes to
 * the shop's endpoint with the price shown, and a 409 brings the new price to confirm again.
 */
export function CheckerBuy({
  products,
  card,
  closed,
  wallet = false,
  shop
}: {
  products: PublicProductView[]
  card: boolean
  closed: boolean
  /** An approved agent on /checkers may pay from the wallet: paid and handed over at once. */
  wallet?: boolean
  shop?: { slug: string }
}) {
  const toast = useToast()
  // Shop prices the server said changed since the page was rendered (409): shown, then confirmed again.
  const [repriced, setRepriced] = useState<Record<number, number>>({})
  const [productId, setProductId] = useState(products.find((p) => p.inStock)?.id ?? 0)
  const [quantity, setQuantity] = useState(1)
  const [payerPhone, setPayerPhone] = useState('')
  const [payerNetwork, setPayerNetwork] = useState('MTN')
  const [email, setEmail] = useState('')
  const [busy, setBusy] = useState(false)
  const [tid, setTid] = useState<string | null>(null)
  const [purchase, setPurchase] = useState<PurchaseView | null>(null)
  const priceOf = (p: PublicProductView) => repriced[p.id] ?? p.price
  const product = products.find((p) => p.id === productId)
  const ids = shop ? 'shop-checker' : 'checker'

  async function buy(e: React.FormEvent) {
    e.preventDefault()
    if (!product) return toast('Choose a checker', 'error')
    if (card && !EMAIL_RE.test(email.trim().toLowerCase())) return toast('Please enter a valid email address for payment', 'error')
    if (!card && payerPhone.length < 9) return toast('Please enter a valid phone number', 'error')
    setBusy(true)
    try {
      const res = await api<PaymentView>(shop ? `/api/shops/${encodeURIComponent(shop.slug)}/checkers/orders` : '/api/vouchers/orders', {
        body: {
          productId,
          quantity,
          ...(shop ? { price: priceOf(product) } : {}),
          ...(card ? { email: email.trim().toLowerCase(), payFrom: 'card' } : { payerPhone, payerNetwork, payFrom: 'momo' })
        },
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
      if (shop && err instanceof ApiError && err.status === 409 && typeof err.body?.price === 'number') {
        // Nothing was charged: the new price is shown and the buyer confirms it (or not) with Pay.
        setRepriced((r) => ({ ...r, [product.id]: err.body.price }))
        toast(`The price of this checker has changed to ${formatCedis(err.body.price)}. Nothing was charged. Press Pay to buy at the new price.`, 'error')
      } else toast(err instanceof ApiError ? err.message : 'Payment request failed', 'error')
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
    <>
      {!products.length ? (
        <p className="notification is-info is-light">No checkers on sale right now.</p>
      ) : (
        <form onSubmit={buy} className="box" aria-label="Buy result checkers">
          <fieldset className="field">
            <legend className="label">Checker</legend>
            {products.map((p) => (
              <label key={p.id} className="radio is-block my-1">
                <input
                  type="radio"
                  name={`${ids}-product`}
                  value={p.id}
                  checked={p.id === productId}
                  disabled={!p.inStock}
                  onChange={() => setProductId(p.id)}
                />{' '}
                {p.name} · {formatCedis(priceOf(p))}
                {p.inStock ? '' : ' · out of stock'}
              </label>
            ))}
          </fieldset>
          <div className="field">
            <label className="label" htmlFor={`${ids}-quantity`}>
              How many cards (1-{MAX})
            </label>
            <div className="control">
              <input
                id={`${ids}-quantity`}
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
              <label className="label" htmlFor={`${ids}-email`}>
                Email for payment
              </label>
              <div className="control">
                <input id={`${ids}-email`} className="input" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
              </div>
            </div>
          ) : (
            <PayerFields idPrefix={ids} phone={payerPhone} network={payerNetwork} onPhone={setPayerPhone} onNetwork={setPayerNetwork} />
          )}
          <p className="mb-3">
            Total: <strong data-testid="checker-total">{formatCedis(product ? priceOf(product) * quantity : 0)}</strong>
          </p>
          <button type="submit" className={`button is-primary is-fullwidth${busy && !tid ? ' is-loading' : ''}`} disabled={busy || closed || !product?.inStock}>
            Pay
          </button>
          {wallet ? (
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
    </>
  )
}
