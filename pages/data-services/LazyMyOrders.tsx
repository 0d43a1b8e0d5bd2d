import { lazy, Suspense } from 'react'

const MyOrders = lazy(() => import('./MyOrders.tsx').then((m) => ({ default: m.MyOrders })))

/** My Orders, its code fetched when the tab is opened: the buy page's first load carries none of it (ADR 0044). */
export function LazyMyOrders() {
  return (
    <Suspense fallback={<p className="sf-muted" role="status">Loading…</p>}>
      <MyOrders />
    </Suspense>
  )
}
