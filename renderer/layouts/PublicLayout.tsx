import { Suspense, useRef, useState, type ReactNode } from 'react'
import { OfflineNotice } from '../offline/OfflineNotice.tsx'
import { signOut } from '../ui/sign-out.ts'
import { ThemeToggle } from '../ui/ThemeToggle.tsx'
import { whatsappLink } from '../ui/links.ts'
import { TypedBeforeHydration } from '../typed-before-hydration.tsx'
import { usePageContext } from '../usePageContext.tsx'
import { useTapOutside } from '../ui/useTapOutside.ts'

function Header() {
  const { settings, user, urlPathname } = usePageContext()
  const [open, setOpen] = useState(false)
  const navRef = useRef<HTMLElement>(null)
  useTapOutside([navRef], open, () => setOpen(false))
  const role = user?.role
  const approvedAgent = role === 'AGENT' && user?.agent?.approved
  const link = (href: string, label: string) => (
    <a className={`navbar-item${urlPathname === href ? ' is-active' : ''}`} href={href} aria-current={urlPathname === href ? 'page' : undefined}>
      {label}
    </a>
  )
  return (
    <header>
      <nav ref={navRef} className="navbar" aria-label="Main navigation">
        <div className="container">
          <div className="navbar-brand">
            <a className="navbar-item has-text-weight-bold" href="/">
              {settings.logoUrl ? (
                <img src={settings.logoUrl} alt="" width={28} height={28} className="mr-2" />
              ) : (
                <span aria-hidden="true" className="mr-2">
                  📶
                </span>
              )}
              <span data-testid="site-name">{settings.siteName || 'Data Hub'}</span>
            </a>
            <div className="navbar-item ml-auto px-1">
              <ThemeToggle />
            </div>
            <button
              className={`navbar-burger ml-0${open ? ' is-active' : ''}`}
              aria-label="Menu"
              aria-expanded={open}
              aria-controls="main-menu"
              onClick={() => setOpen(!open)}>
              <span aria-hidden="true" />
              <span aria-hidden="true" />
              <span aria-hidden="true" />
              <span aria-hidden="true" />
            </button>
          </div>
          <div id="main-menu" className={`navbar-menu${open ? ' is-active' : ''}`}>
            <div className="navbar-start">
              {link('/', 'Home')}
              {link('/data-services', 'Buy Data')}
              {link('/afa', 'AFA Registration')}
              {link('/checkers', 'Result Checkers')}
              {role !== 'AGENT' ? link('/agent/register', 'Become an Agent') : null}
              {approvedAgent ? link('/agent', 'Agent') : null}
              {role === 'ADMIN' ? link('/admin/overview', 'Admin') : null}
            </div>
            <div className="navbar-end">
              {role === 'AGENT' && !approvedAgent ? (
                <span className="navbar-item">
                  <span className="tag is-warning">Awaiting approval</span>
                </span>
              ) : null}
              <div className="navbar-item">
                {user ? (
                  <button className="button is-light" onClick={() => signOut()}>
                    Sign Out
                  </button>
                ) : (
                  <a className="button is-primary" href="/login">
                    Sign In
                  </a>
                )}
              </div>
            </div>
          </div>
        </div>
      </nav>
    </header>
  )
}

function WorkingHours() {
  const { settings } = usePageContext()
  if (!settings.workingHoursEnabled || !settings.workingHoursText) return null
  return (
    <div className="working-hours" role="note" aria-label="Working hours">
      <span>{settings.workingHoursText}</span>
    </div>
  )
}

function Footer() {
  const { settings } = usePageContext()
  const wa = whatsappLink(settings.whatsappNumber)
  return (
    <footer className="footer">
      <div className="container columns">
        <div className="column">
          <p className="has-text-weight-bold">{settings.siteName || 'Data Hub'}</p>
          <p>Fast data purchases and powerful agent tools.</p>
        </div>
        <div className="column">
          {settings.whatsappNumber ? (
            <p>
              Phone: <a href={`tel:${settings.whatsappNumber}`}>{settings.whatsappNumber}</a>
            </p>
          ) : null}
          {wa ? (
            <p>
              <a href={wa} target="_blank" rel="noopener noreferrer">
                Chat on WhatsApp
              </a>
            </p>
          ) : null}
          {settings.whatsappChannelLink ? (
            <p>
              <a href={settings.whatsappChannelLink} target="_blank" rel="noopener noreferrer">
                Join our WhatsApp channel
              </a>
            </p>
          ) : null}
        </div>
        <nav className="column" aria-label="Quick links">
          <p className="has-text-weight-bold">Quick links</p>
          <ul>
            <li>
              <a href="/data-services">Buy Data</a>
            </li>
            <li>
              <a href="/data-services">My Orders</a>
            </li>
            <li>
              <a href="/afa">AFA Registration</a>
            </li>
            <li>
              <a href="/agent/register">Become an Agent</a>
            </li>
          </ul>
        </nav>
      </div>
      {/* The page's last element: the browser paints nothing before it has parsed it (+onRenderHtml.tsx). */}
      <p className="has-text-centered is-size-7 mt-4" id="page-end">
        © {new Date().getFullYear()} {settings.siteName || 'Data Hub'}. All rights reserved.
      </p>
    </footer>
  )
}

/**
 * The header hydrates with the page's first task (its menu answers a tap at once); the page and the footer
 * are each a Suspense boundary, which React hydrates afterwards in slices of a few milliseconds, so no
 * long task keeps a phone from answering while the buy form comes alive (ADR 0044). A tap on a part not
 * yet hydrated hydrates that part first, then reaches it.
 */
export function PublicLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      <OfflineNotice />
      <WorkingHours />
      <main id="main">
        <Suspense fallback={null}>
          {children}
          <TypedBeforeHydration />
        </Suspense>
      </main>
      <Suspense fallback={null}>
        <Footer />
      </Suspense>
    </>
  )
}
