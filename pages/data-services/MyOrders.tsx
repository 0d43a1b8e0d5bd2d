import { useState, type FormEvent } from 'react'
import { api } from '../../renderer/api.ts'
import { useToast } from '../../renderer/ui/Toasts.tsx'
import { digitsOnly } from '../_storefront/format.ts'
import { OrderCard } from '../_storefront/OrderCard.tsx'
import { rememberOrders } from '../_storefront/seen-orders.ts'
import type { OrderView } from '../../server/services/orders/view.ts'
import { DeliveryBadge } from '../../renderer/ui/DeliveryBadge.tsx'

/** Look up orders by phone (Enter or 'Look Up'); cards per order; 'No Orders Found' when none. */
export function MyOrders() {
  const toast = useToast()
  const [phone, setPhone] = useState('')
  const [orders, setOrders] = useState<OrderView[] | null>(null)
  const [loading, setLoading] = useState(false)

  async function lookUp(e?: FormEvent) {
    e?.preventDefault()
    if (!phone.trim()) {
      toast('Please enter a phone number', 'error')
      return
    }
    setLoading(true)
    try {
      const found = await api<OrderView[]>(`/api/orders?phoneNumber=${encodeURIComponent(phone.trim())}`)
      setOrders(found)
      rememberOrders(found)
    } catch {
      toast('Failed to fetch orders', 'error')
      setOrders([])
    } finally {
      setLoading(false)
    }
  }

  return (
    <div className="sf-stack">
      <form className="box" onSubmit={lookUp} role="search" aria-label="Look up orders">
        <label className="label" htmlFor="lookup-phone">
          Phone number
        </label>
        <div className="field has-addons">
          <div className="control is-expanded">
            <input
              id="lookup-phone"
              className="input"
              inputMode="numeric"
              placeholder="0241234567"
              value={phone}
              onChange={(e) => setPhone(digitsOnly(e.target.value))}
            />
          </div>
          <div className="control">
            <button type="submit" className={`button is-primary${loading ? ' is-loading' : ''}`} disabled={loading}>
              Look Up
            </button>
          </div>
        </div>
        <p className="help">The recipient number or the number that paid.</p>
      </form>
      {orders === null ? null : orders.length === 0 ? (
        <div className="box has-text-centered" data-testid="orders-empty">
          <p className="title is-5">No Orders Found</p>
          <p className="sf-muted">No orders were found for this phone number.</p>
        </div>
      ) : (
        <div className="sf-stack" data-testid="order-list">
          {orders.map((o) => (
            <OrderCard key={o.id} order={o}>
              <dt>Delivery</dt>
              <dd>
                <DeliveryBadge status={o.deliveryStatus} paid={o.paymentStatus === 'SUCCESS'} />
              </dd>
              {o.deliveryReference ? (
                <>
                  <dt>Delivery reference</dt>
                  <dd className="sf-mono" data-testid="delivery-reference">
                    {o.deliveryReference}
                  </dd>
                </>
              ) : null}
            </OrderCard>
          ))}
        </div>
      )}
    </div>
  )
}
