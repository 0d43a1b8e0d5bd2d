import { useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { usePageContext } from '../../../renderer/usePageContext.tsx'
import { formatPesewas } from '../../../server/lib/money.ts'
import { EMAIL_RE } from '../../_storefront/format.ts'
import { PayerFields } from '../../_storefront/PayerFields.tsx'
import '../../_storefront/storefront.css'
import type { PayLinkData } from './+data.ts'

/** The short pay page of a WhatsApp order: its amount from the server, card checkout or a mobile money prompt as the shop takes them. */
export default function Page() {
  const pc = usePageContext() as ReturnType<typeof usePageContext> & { data: PayLinkData }
  const { view, method } = pc.data
  const token = String(pc.routeParams?.token ?? '')
  const [email, setEmail] = useState('')
  const [phone, setPhone] = useState('')
  const [network, setNetwork] = useState('MTN')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [sent, setSent] = useState<string | null>(null)

  async function pay(e: React.FormEvent) {
    e.preventDefault()
    setError(null)
    if (method === 'card' && !EMAIL_RE.test(email.trim())) return setError('Please enter a valid email address')
    setBusy(true)
    try {
      const body = method === 'card' ? { email: email.trim().toLowerCase() } : { payerPhone: phone, payerNetwork: network }
      const payment = await api<{ authorizationUrl: string | null; message: string }>(`/api/whatsapp/pay/${encodeURIComponent(token)}`, { body })
      if (payment.authorizationUrl) return void window.location.assign(payment.authorizationUrl)
      setSent(payment.message || 'A payment prompt is on its way. Approve it on your phone.')
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Something went wrong. Please try again.')
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="sf-section">
      <div className="container" style={{ maxWidth: '32rem' }}>
        <h1 className="title is-4">Pay for your order</h1>
        <dl className="box" data-testid="pay-summary">
          <dt className="has-text-weight-semibold">Bundle</dt>
          <dd className="mb-2">
            {view.bundle} to {view.recipient}
          </dd>
          <dt className="has-text-weight-semibold">Reference</dt>
          <dd className="mb-2">{view.ref}</dd>
          <dt className="has-text-weight-semibold">Amount</dt>
          <dd data-testid="pay-amount">{formatPesewas(view.amountPesewas)}</dd>
        </dl>
        {view.state === 'paid' ? (
          <p className="notification is-success" role="status">
            This order is paid. We will message you on WhatsApp when the data is delivered.
          </p>
        ) : view.state === 'expired' ? (
          <p className="notification is-warning" role="status">
            This payment link has expired. Ask for a new one in the WhatsApp chat.
          </p>
        ) : sent ? (
          <p className="notification is-info" role="status" data-testid="pay-sent">
            {sent}
          </p>
        ) : (
          <form className="box" onSubmit={pay} noValidate>
            {method === 'card' ? (
              <div className="field">
                <label className="label" htmlFor="pay-email">
                  Email for the receipt
                </label>
                <div className="control">
                  <input id="pay-email" className="input" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
                </div>
              </div>
            ) : (
              <PayerFields idPrefix="pay" phone={phone} network={network} onPhone={setPhone} onNetwork={setNetwork} />
            )}
            {error ? (
              <p className="help is-danger mb-3" role="alert">
                {error}
              </p>
            ) : null}
            <button type="submit" className={`button is-primary is-fullwidth${busy ? ' is-loading' : ''}`} disabled={busy}>
              {method === 'card' ? `Pay ${formatPesewas(view.amountPesewas)} by card` : `Send the prompt for ${formatPesewas(view.amountPesewas)}`}
            </button>
          </form>
        )}
      </div>
    </section>
  )
}
