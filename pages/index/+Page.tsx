import { useEffect, useRef } from 'react'
import { api } from '../../renderer/api.ts'
import { useToast } from '../../renderer/ui/Toasts.tsx'
import { usePageContext } from '../../renderer/usePageContext.tsx'
import '../_storefront/storefront.css'
import './home.css'
import { VisitorMessage } from './VisitorMessage.tsx'
import type { HomeData } from './+data.ts'

const FEATURES = [
  { icon: '⚡', title: 'Lightning Fast', text: 'Instant activation: your bundle is on its way the moment payment is confirmed.' },
  { icon: '💰', title: 'Best Prices', text: 'Competitive prices on every network, and wholesale rates for agents.' },
  { icon: '🔒', title: 'Bank-Grade Security', text: 'Secure payments by mobile money or card through a trusted gateway.' }
]
const STEPS = [
  { title: 'Choose network', text: 'MTN, Telecel or AirtelTigo.' },
  { title: 'Pick package', text: 'Daily, weekly or monthly bundles.' },
  { title: 'Pay and receive', text: 'Approve the payment and the data arrives.' }
]
const CTAS = [
  { href: '/data-services', title: 'Buy Data', text: 'Top up any number in seconds.', button: 'Buy Data Now' },
  { href: '/data-services?tab=orders', title: 'My Orders', text: 'Track orders with your phone number.', button: 'Look Up Orders' },
  { href: '/agent/register', title: 'Become an Agent', text: 'Resell data at wholesale prices.', button: 'Become an Agent' }
]

/** After a card checkout that returns to home: verify the payment and say how it went. */
function usePaymentReturn() {
  const toast = useToast()
  const done = useRef(false)
  useEffect(() => {
    const q = new URLSearchParams(window.location.search)
    const reference = q.get('reference') || q.get('trxref')
    if (!reference || done.current) return
    done.current = true
    api<{ status: string }>(`/api/webhooks/paystack?trxref=${encodeURIComponent(q.get('trxref') ?? reference)}&reference=${encodeURIComponent(reference)}`)
      .then((v) =>
        toast(v.status === 'success' ? 'Payment completed successfully!' : 'Payment verification failed', v.status === 'success' ? 'success' : 'error')
      )
      .catch(() => toast('Payment verification failed', 'error'))
      .finally(() => history.replaceState(null, '', '/'))
  }, [toast])
}

export default function Page() {
  const pc = usePageContext() as ReturnType<typeof usePageContext> & { data: HomeData }
  const { settings } = pc
  const figures = pc.data
  usePaymentReturn()
  const name = settings.siteName || 'Data Hub'
  return (
    <>
      <section className="hero is-primary">
        <div className="hero-body container">
          <h1 className="title is-2">{name}</h1>
          <p className="subtitle">{settings.welcomeMessage}</p>
          <div className="buttons">
            <a className="button is-light is-medium" href="/data-services">
              Buy Data Now
            </a>
            <a className="button is-dark is-outlined is-medium" href="/agent/register">
              Become an Agent
            </a>
          </div>
          <div className="tags" aria-label="Supported networks">
            <span className="tag is-warning is-medium">MTN</span>
            <span className="tag is-danger is-medium">Telecel</span>
            <span className="tag is-info is-medium">AirtelTigo</span>
          </div>
        </div>
      </section>

      <section className="sf-section">
        <div className="container sf-stack">
          <h2 className="title is-4 has-text-centered">Why {name}?</h2>
          <div className="sf-features">
            {FEATURES.map((f) => (
              <div key={f.title} className="card">
                <div className="card-content">
                  <p className="is-size-3" aria-hidden="true">
                    {f.icon}
                  </p>
                  <h3 className="title is-5">{f.title}</h3>
                  <p>{f.text}</p>
                </div>
              </div>
            ))}
          </div>

          <h2 className="title is-4 has-text-centered sf-gap-top">How It Works</h2>
          <ol className="sf-steps">
            {STEPS.map((s, i) => (
              <li key={s.title} className="box">
                <span className="sf-step-number" aria-hidden="true">
                  {i + 1}
                </span>
                <h3 className="title is-6">{s.title}</h3>
                <p className="sf-muted">{s.text}</p>
              </li>
            ))}
          </ol>

          <div className="sf-features sf-gap-top">
            {CTAS.map((c) => (
              <div key={c.title} className="card">
                <div className="card-content sf-stack">
                  <h3 className="title is-5">{c.title}</h3>
                  <p>{c.text}</p>
                  <a className="button is-link is-light" href={c.href}>
                    {c.button}
                  </a>
                </div>
              </div>
            ))}
          </div>

          <div className="box sf-trust sf-gap-top" aria-label="Why people trust us">
            {figures.customers ? (
              <div data-testid="trust-users">
                <strong>{figures.customers}</strong>
                <span className="sf-muted">users</span>
              </div>
            ) : null}
            {figures.successRate ? (
              <div data-testid="trust-success">
                <strong>{figures.successRate}</strong>
                <span className="sf-muted">success rate</span>
              </div>
            ) : null}
            <div>
              <strong>Instant</strong>
              <span className="sf-muted">activation</span>
            </div>
            <div>
              <strong>Secure</strong>
              <span className="sf-muted">payments</span>
            </div>
          </div>
        </div>
      </section>
      <VisitorMessage />
    </>
  )
}
