import { lazyHydrated } from '../../renderer/ui/lazy-hydrated.tsx'

// Neither is needed before a visitor's first tap: My Orders is a second tab (or a closed shop's one form), and the
// orders saved on the device show only offline. Their HTML comes with the page when shown, their code after it.
export const LazyMyOrders = lazyHydrated(() => import('./MyOrders.tsx').then((m) => m.MyOrders))
export const LazySavedOrders = lazyHydrated(() => import('../_storefront/SavedOrders.tsx').then((m) => m.SavedOrders))
