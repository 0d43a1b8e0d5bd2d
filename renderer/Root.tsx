import type { ReactNode } from 'react'
import type { PageContext } from 'vike/types'
import './styles/public.scss'
import { isMaintenanceExempt } from './access.ts'
import { Maintenance } from './ui/Maintenance.tsx'
import { NavProgress } from './ui/NavProgress.tsx'
import { LazySessionTimeout } from './ui/LazySessionTimeout.tsx'
import { ToastProvider } from './ui/Toasts.tsx'
import { PageContextProvider } from './usePageContext.tsx'

export const DEMO_BANNER_TEXT = 'Demo: payments are simulated'

/** No real money moves while the payment simulator takes the payments: nobody may mistake this for a live shop. */
function DemoBanner() {
  return (
    // Fixed yellow on dark text: readable in light and dark mode alike, like the maintenance banner.
    <div
      className="demo-banner"
      role="status"
      data-testid="demo-banner"
      style={{ background: '#ffdd57', color: '#3b3000', fontWeight: 700, textAlign: 'center', padding: '.25rem .75rem' }}>
      {DEMO_BANNER_TEXT}
    </div>
  )
}

/** The maintenance screen, or the page inside the shell its folder names (+Layout.ts: public, admin or agent). */
export function Root({ pageContext, children }: { pageContext: PageContext; children: ReactNode }) {
  const path = pageContext.urlPathname
  const closed = pageContext.settings?.platformOpen === false
  const Layout = pageContext.config.Layout
  let body: ReactNode
  if (closed && !isMaintenanceExempt(path, pageContext.user?.role)) body = <Maintenance />
  else body = Layout ? <Layout>{children}</Layout> : children
  return (
    <PageContextProvider pageContext={pageContext}>
      <ToastProvider>
        <NavProgress />
        {pageContext.simulatedPayments ? <DemoBanner /> : null}
        {body}
        {pageContext.user ? <LazySessionTimeout /> : null}
      </ToastProvider>
    </PageContextProvider>
  )
}
