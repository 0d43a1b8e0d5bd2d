import type { ReactNode } from 'react'
import type { PageContext } from 'vike/types'
import './styles/public.scss'
import { AdminLayout } from './layouts/AdminLayout.tsx'
import { AgentLayout } from './layouts/AgentLayout.tsx'
import { PublicLayout } from './layouts/PublicLayout.tsx'
import { isMaintenanceExempt } from './access.ts'
import { Maintenance } from './ui/Maintenance.tsx'
import { NavProgress } from './ui/NavProgress.tsx'
import { SessionTimeout } from './ui/SessionTimeout.tsx'
import { ToastProvider } from './ui/Toasts.tsx'
import { PageContextProvider } from './usePageContext.tsx'

/** Picks the layout for the path: the maintenance screen, the admin or agent portal, or the public shell. */
export function Root({ pageContext, children }: { pageContext: PageContext; children: ReactNode }) {
  const path = pageContext.urlPathname
  const closed = pageContext.settings?.platformOpen === false
  let body: ReactNode
  if (closed && !isMaintenanceExempt(path, pageContext.user?.role)) body = <Maintenance />
  else if (path.startsWith('/admin')) body = <AdminLayout>{children}</AdminLayout>
  else if (path.startsWith('/agent/') && path !== '/agent/register') body = <AgentLayout>{children}</AgentLayout>
  else body = <PublicLayout>{children}</PublicLayout>
  return (
    <PageContextProvider pageContext={pageContext}>
      <ToastProvider>
        <NavProgress />
        {body}
        {pageContext.user ? <SessionTimeout /> : null}
      </ToastProvider>
    </PageContextProvider>
  )
}
