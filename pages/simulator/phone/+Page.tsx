import { useCallback, useEffect, useState, type FormEvent } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { usePageContext } from '../../../renderer/usePageContext.tsx'
import { digitsOnly, formatCedis, NETWORK_LABEL } from '../../_storefront/format.ts'
import { purposeLabel } from '../../../renderer/format.ts'
import '../../_storefront/storefront.css'
import './phone.css'

interface Prompt {
  reference: string
  amount: number
  phone: string
  network: string
  purpose: string
  createdAt: string
  expiresAt: string
}
const POLL_MS = 2000

/** Plays the payer's phone: mobile-money prompts sent to this number wait here for Approve or Decline. */
export default function Page() {
  const toast = useToast()
  const pc = usePageContext() as ReturnType<typeof usePageContext> & { data: { siteName: string; ttlSeconds: number; phone: string } }
  const [phone, setPhone] = useState(pc.data.phone)
  const [watching, setWatching] = useState(() => (phone.length >= 9 ? phone : ''))
  const [prompts, setPrompts] = useState<Prompt[] | null>(null)
  const [busy, setBusy] = useState<string | null>(null)

  // Without a number typed in, the phone shows the prompts of the payments this browser started.
  const load = useCallback(async () => {
    try {
      setPrompts((await api<{ prompts: Prompt[] }>(watching ? `/api/simulator/prompts?phone=${watching}` : '/api/simulator/prompts')).prompts)
    } catch {
      setPrompts([])
    }
  }, [watching])

  useEffect(() => {
    void load()
    const t = setInterval(load, POLL_MS)
    return () => clearInterval(t)
  }, [watching, load])

  function watch(e: FormEvent) {
    e.preventDefault()
    if (phone.length < 9) {
      toast('Please enter a valid phone number', 'error')
      return
    }
    setPrompts(null)
    setWatching(phone)
    history.replaceState(null, '', `?phone=${phone}`)
  }

  async function answer(p: Prompt, action: 'approve' | 'decline') {
    setBusy(`${p.reference}:${action}`)
    try {
      const res = await api<{ paymentStatus: string }>(`/api/simulator/payments/${p.reference}/${action}`, { method: 'POST', body: {} })
      toast(action === 'approve' ? `Payment approved (${res.paymentStatus})` : 'Payment declined', action === 'approve' ? 'success' : 'info')
      await load()
    } catch (err) {
      toast(err instanceof ApiError ? err.message : 'Could not answer the prompt', 'error')
      await load()
    } finally {
      setBusy(null)
    }
  }

  return (
    <section className="sf-section">
      <div className="container sf-stack" style={{ maxWidth: 560 }}>
        <h1 className="title is-4">Payer's phone</h1>
        <div className="notification is-warning is-light">
          <strong>Payment simulator.</strong> No real money moves. This page plays the payer's phone: prompts of the payments started in this browser appear
          here, or those sent to a number you open below.
        </div>
        <form className="box" onSubmit={watch}>
          <label className="label" htmlFor="sim-phone">
            Phone number
          </label>
          <div className="field has-addons">
            <div className="control is-expanded">
              <input
                id="sim-phone"
                className="input"
                inputMode="numeric"
                placeholder="0241234567"
                value={phone}
                onChange={(e) => setPhone(digitsOnly(e.target.value))}
              />
            </div>
            <div className="control">
              <button className="button is-primary" type="submit">
                Open phone
              </button>
            </div>
          </div>
        </form>
        {
          <div className="sf-phone" aria-label={watching ? `Phone ${watching}` : 'Payments started in this browser'}>
            <p className="has-text-centered sf-muted sf-gap-bottom">📱 {watching || 'Payments started in this browser'}</p>
            {prompts === null ? (
              <p className="has-text-centered sf-muted">Loading...</p>
            ) : prompts.length === 0 ? (
              <p className="has-text-centered sf-muted" data-testid="no-prompts">
                No pending payment prompts. Prompts expire after {Math.round(pc.data.ttlSeconds / 60)} minutes.
              </p>
            ) : (
              <div className="sf-stack">
                {prompts.map((p) => (
                  <div key={p.reference} className="sf-prompt" role="alertdialog" aria-labelledby={`prompt-${p.reference}`} data-testid="sim-prompt">
                    <p id={`prompt-${p.reference}`}>
                      <strong>{NETWORK_LABEL[p.network] ?? p.network} MoMo</strong>: Pay <strong>{formatCedis(p.amount)}</strong> to {pc.data.siteName} for{' '}
                      {purposeLabel(p.purpose)}?
                    </p>
                    <p className="sf-muted sf-mono">Ref {p.reference}</p>
                    <div className="sf-row sf-gap-top">
                      <button
                        className={`button is-success${busy === `${p.reference}:approve` ? ' is-loading' : ''}`}
                        disabled={!!busy}
                        onClick={() => answer(p, 'approve')}>
                        Approve
                      </button>
                      <button
                        className={`button is-danger is-light${busy === `${p.reference}:decline` ? ' is-loading' : ''}`}
                        disabled={!!busy}
                        onClick={() => answer(p, 'decline')}>
                        Decline
                      </button>
                    </div>
                  </div>
                ))}
              </div>
            )}
          </div>
        }
      </div>
    </section>
  )
}
