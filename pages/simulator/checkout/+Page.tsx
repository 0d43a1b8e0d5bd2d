import { useEffect, useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { usePageContext } from '../../../renderer/usePageContext.tsx'
import { formatCedis } from '../../_storefront/format.ts'
import '../../_storefront/storefront.css'

interface Checkout {
  reference: string
  amount: number
  email: string | null
  purpose: string
  status: string
  answered: boolean
}

/** A stand-in for the card gateway's hosted checkout: pay or cancel, then back to /payment-callback. */
export default function Page() {
  const toast = useToast()
  const pc = usePageContext() as ReturnType<typeof usePageContext> & { data: { siteName: string; reference: string } }
  const reference = pc.data.reference
  const [info, setInfo] = useState<Checkout | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState<'approve' | 'decline' | null>(null)

  useEffect(() => {
    if (!reference) {
      setError('No payment reference provided')
      return
    }
    api<Checkout>(`/api/simulator/payments/${encodeURIComponent(reference)}`).then(setInfo, (err) =>
      setError(err instanceof ApiError ? err.message : 'Payment not found')
    )
  }, [reference])

  const back = () => {
    window.location.href = `/payment-callback?reference=${encodeURIComponent(reference)}&trxref=${encodeURIComponent(reference)}`
  }

  async function answer(action: 'approve' | 'decline') {
    setBusy(action)
    try {
      await api(`/api/simulator/payments/${encodeURIComponent(reference)}/${action}`, { method: 'POST', body: {} })
    } catch (err) {
      toast(err instanceof ApiError ? err.message : 'Payment could not be completed', 'error')
    }
    back()
  }

  return (
    <section className="sf-section">
      <div className="container" style={{ maxWidth: 460 }}>
        <div className="notification is-warning is-light">
          <strong>Payment simulator</strong> checkout. No card is charged.
        </div>
        <div className="box sf-stack">
          <h1 className="title is-4">Pay {pc.data.siteName}</h1>
          {error ? (
            <p className="notification is-danger" role="alert">
              {error}
            </p>
          ) : null}
          {!info && !error ? <progress className="progress is-small" max={100} aria-label="Loading" /> : null}
          {info ? (
            <>
              <p className="is-size-3 has-text-weight-bold" data-testid="checkout-amount">
                {formatCedis(info.amount)}
              </p>
              <p className="sf-muted">{info.email}</p>
              <p className="sf-muted sf-mono">Ref {info.reference}</p>
              {info.answered || !['PENDING', 'IN_PROGRESS'].includes(info.status) ? (
                <>
                  <p>This payment is already {info.status.toLowerCase()}.</p>
                  <button className="button is-primary" onClick={back}>
                    Return to shop
                  </button>
                </>
              ) : (
                <div className="sf-row">
                  <button className={`button is-success${busy === 'approve' ? ' is-loading' : ''}`} disabled={!!busy} onClick={() => answer('approve')}>
                    Pay {formatCedis(info.amount)}
                  </button>
                  <button className={`button is-light${busy === 'decline' ? ' is-loading' : ''}`} disabled={!!busy} onClick={() => answer('decline')}>
                    Cancel payment
                  </button>
                </div>
              )}
            </>
          ) : null}
        </div>
      </div>
    </section>
  )
}
