import { useEffect, useState } from 'react'
import { useOffline } from '../../renderer/offline/useOffline.ts'
import { formatDate } from './format.ts'
import { OrderCard } from './OrderCard.tsx'
import { loadSeenOrders, type SeenOrder } from './seen-orders.ts'

/** Offline, the orders this browser saw (its purchases and look-ups), read from the device (ADR 0044). */
export function SavedOrders() {
  const offline = useOffline()
  const [orders, setOrders] = useState<SeenOrder[]>([])
  useEffect(() => {
    if (offline) setOrders(loadSeenOrders())
  }, [offline])
  if (!offline || !orders.length) return null
  return (
    <section className="sf-stack sf-gap-top" aria-labelledby="saved-orders-title" data-testid="saved-orders">
      <h2 className="title is-5" id="saved-orders-title">
        Your recent orders on this device
      </h2>
      <p className="sf-muted">As this device last saw them; look them up again once you are back online.</p>
      {orders.map((o) => (
        <OrderCard key={o.id} order={o}>
          <dt>Status seen</dt>
          <dd>{formatDate(o.seenAt)}</dd>
        </OrderCard>
      ))}
    </section>
  )
}
