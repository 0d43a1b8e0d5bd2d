import { useEffect, useRef, useState, type ReactNode } from 'react'
import { signOut } from '../ui/sign-out.ts'
import { ThemeToggle } from '../ui/ThemeToggle.tsx'
import { TypedBeforeHydration } from '../typed-before-hydration.tsx'
import { usePageContext } from '../usePageContext.tsx'
import { useTapOutside } from '../ui/useTapOutside.ts'

export interface NavLink {
  href: string
  label: string
}

export const SIDEBAR_COOKIE = 'sidebar_state'
const SEVEN_DAYS = 7 * 24 * 3600

function cookieOpen(header: unknown): boolean {
  const m = /(?:^|;\s*)sidebar_state=(true|false)/.exec(String(header ?? ''))
  return m ? m[1] === 'true' : true
}

/** Sidebar shell shared by the admin and agent portals (spec: cookie 7 days, Ctrl/Cmd+B, 768 px). */
export function PortalLayout({ title, links, crumbs, children }: { title: string; links: NavLink[]; crumbs: Record<string, string>; children: ReactNode }) {
  const { urlPathname, settings, headersOriginal, user } = usePageContext() as ReturnType<typeof usePageContext> & { headersOriginal?: Record<string, unknown> }
  const [open, setOpen] = useState(() => (typeof document === 'undefined' ? cookieOpen(headersOriginal?.cookie) : cookieOpen(document.cookie)))
  const [mobileOpen, setMobileOpen] = useState(false)
  // Below 768 px the toggle opens a drawer instead; aria-expanded follows whichever is in use.
  const [mobile, setMobile] = useState(false)
  useEffect(() => {
    const mq = window.matchMedia('(max-width: 768px)')
    const onChange = () => setMobile(mq.matches)
    onChange()
    mq.addEventListener('change', onChange)
    return () => mq.removeEventListener('change', onChange)
  }, [])
  const sidebarRef = useRef<HTMLElement>(null)
  const toggleRef = useRef<HTMLButtonElement>(null)
  useTapOutside([sidebarRef, toggleRef], mobile && mobileOpen, () => setMobileOpen(false))

  useEffect(() => {
    document.cookie = `${SIDEBAR_COOKIE}=${open}; path=/; max-age=${SEVEN_DAYS}; samesite=lax`
  }, [open])
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'b') {
        e.preventDefault()
        if (window.matchMedia('(max-width: 768px)').matches) setMobileOpen((v) => !v)
        else setOpen((v) => !v)
      }
      if (e.key === 'Escape') setMobileOpen(false)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  // Every page is named: its own crumb, else its menu entry.
  const crumb = crumbs[urlPathname] ?? links.find((l) => l.href === urlPathname)?.label
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {settings.platformOpen === false ? (
        <div className="maintenance-banner" role="alert">
          MAINTENANCE MODE ACTIVE - Platform is closed to users
        </div>
      ) : null}
      <div className={`app-shell${open ? '' : ' is-collapsed'}${mobileOpen ? ' is-mobile-open' : ''}`}>
        <aside ref={sidebarRef} className="app-sidebar" id="portal-sidebar" aria-label={title}>
          <p className="title is-5 mb-4">{title}</p>
          <nav className="menu">
            <ul className="menu-list">
              {links.map((l) => (
                <li key={l.href}>
                  <a href={l.href} className={urlPathname === l.href ? 'is-active' : undefined} aria-current={urlPathname === l.href ? 'page' : undefined}>
                    {l.label}
                  </a>
                </li>
              ))}
              <li>
                <button className="button is-text is-fullwidth is-justify-content-flex-start px-3" onClick={() => signOut()}>
                  Logout
                </button>
              </li>
            </ul>
          </nav>
        </aside>
        <div className="app-content">
          <header className="portal-header">
            <button
              ref={toggleRef}
              className="button is-small"
              aria-controls="portal-sidebar"
              aria-expanded={mobile ? mobileOpen : open}
              data-testid="sidebar-toggle"
              title="Toggle sidebar (Ctrl+B)"
              onClick={() => (window.matchMedia('(max-width: 768px)').matches ? setMobileOpen(!mobileOpen) : setOpen(!open))}>
              <span aria-hidden="true">☰</span>
              <span className="ml-1">Menu</span>
            </button>
            <a className="portal-brand" href="/">
              {settings.siteName || 'Data Hub'}
            </a>
            <nav className="breadcrumb mb-0" aria-label="breadcrumbs">
              <ul>
                <li>
                  <a href="/">Home</a>
                </li>
                {crumb ? (
                  <li className="is-active">
                    <a href={urlPathname} aria-current="page">
                      {crumb}
                    </a>
                  </li>
                ) : null}
              </ul>
            </nav>
            <div className="portal-header-end">
              <span className="is-size-7 is-hidden-mobile">{user?.email}</span>
              <ThemeToggle />
            </div>
          </header>
          <main id="main">
            {children}
            <TypedBeforeHydration />
          </main>
        </div>
      </div>
    </>
  )
}
