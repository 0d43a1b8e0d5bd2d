import { useEffect, useRef, useState } from 'react'
import { api, ApiError } from '../../renderer/api.ts'
import { useToast } from '../../renderer/ui/Toasts.tsx'
import '../_storefront/storefront.css'
import { SHOP_RETURN_KEY } from '../_storefront/payment-texts.ts'

interface Verification {
  status: string
  message?: string
  type?: 'data' | 'agent' | 'afa' | 'agent_order' | 'wallet_topup' | 'voucher'
  orderId?: number | null
}

// Spec section 2, Payment callback: success destinations and 'Try Again' targets by payment type.
const SUCCESS_TO: Record<string, string> = {
  data: '/buy',
  agent: '/agent/dashboard',
  afa: '/',
  agent_order: '/agent/orders',
  wallet_topup: '/agent/wallet',
  voucher: '/checkers/mine'
}
const RETRY_TO: Record<string, string> = {
  data: '/buy',
  agent: '/agent/payment',
  afa: '/afa',
  agent_order: '/agent/place-order',
  wallet_topup: '/agent/wallet',
  voucher: '/checkers'
}
const PENDING_TRIES = 6
const PENDING_WAIT_MS = 2500

/** A card checkout started in an agent's shop comes back to that shop, not to /buy. */
function shopReturn(type: string): string | null {
  if (type !== 'data' || typeof sessionStorage === 'undefined') return null
  const to = sessionStorage.getItem(SHOP_RETURN_KEY)
  return to && /^\/shop\/[a-z0-9-]{3,30}$/.test(to) ? to : null
}
const successTo = (type: string) => shopReturn(type) ?? SUCCESS_TO[type] ?? '/'
const retryTo = (type: string) => shopReturn(type) ?? RETRY_TO[type] ?? '/buy'

type State = { kind: 'loading' } | { kind: 'success'; type: string } | { kind: 'error'; message: string; type: string }

export default function Page() {
  const toast = useToast()
  const [state, setState] = useState<State>({ kind: 'loading' })
  const started = useRef(false)

  useEffect(() => {
    if (started.current) return
    started.current = true
    const q = new URLSearchParams(window.location.search)
    const reference = q.get('reference') || q.get('trxref')
    if (!reference) {
      setState({ kind: 'error', message: 'No payment reference provided', type: 'data' })
      toast('Payment verification failed', 'error')
      return
    }
    let cancelled = false
    ;(async () => {
      // The gateway may confirm a moment after the redirect: ask a few times before calling it a failure.
      for (let i = 0; i < PENDING_TRIES && !cancelled; i++) {
        try {
          const v = await api<Verification>(
            `/api/webhooks/paystack?trxref=${encodeURIComponent(q.get('trxref') ?? reference)}&reference=${encodeURIComponent(reference)}`
          )
          if (v.status === 'success') {
            setState({ kind: 'success', type: v.type ?? 'data' })
            toast('Payment completed successfully!', 'success')
            setTimeout(() => {
              window.location.href = successTo(v.type ?? 'data')
            }, 3000)
            return
          }
          if (v.status === 'failed' || i === PENDING_TRIES - 1) {
            setState({ kind: 'error', message: v.message || 'There was an issue with your payment.', type: v.type ?? 'data' })
            toast('Payment verification failed', 'error')
            return
          }
        } catch (err) {
          setState({ kind: 'error', message: err instanceof ApiError && err.message ? err.message : 'There was an issue with your payment.', type: 'data' })
          toast('Payment verification failed', 'error')
          return
        }
        await new Promise((r) => setTimeout(r, PENDING_WAIT_MS))
      }
    })()
    return () => {
      cancelled = true
    }
  }, [toast])

  return (
    <section className="sf-section">
      <div className="container" style={{ maxWidth: 520 }}>
        <div className="box has-text-centered sf-stack" role="status" aria-live="polite">
          {state.kind === 'loading' ? (
            <>
              <progress className="progress is-small is-primary" max={100} aria-label="Verifying payment" />
              <h1 className="title is-4">Verifying your payment...</h1>
              <p className="sf-muted">Please wait while we confirm your payment with the provider.</p>
            </>
          ) : state.kind === 'success' ? (
            <>
              <p className="is-size-1" aria-hidden="true">
                ✅
              </p>
              <h1 className="title is-4">Payment Successful</h1>
              <p>Payment completed successfully! Redirecting you in 3 seconds...</p>
              <a className="button is-primary" href={successTo(state.type)}>
                Continue
              </a>
            </>
          ) : (
            <>
              <p className="is-size-1" aria-hidden="true">
                ⚠️
              </p>
              <h1 className="title is-4">Payment Failed</h1>
              <p data-testid="callback-error">{state.message || 'There was an issue with your payment.'}</p>
              <div className="sf-row" style={{ justifyContent: 'center' }}>
                <a className="button is-primary" href={retryTo(state.type)}>
                  Try Again
                </a>
                <a className="button" href="/">
                  Go Home
                </a>
              </div>
            </>
          )}
        </div>
      </div>
    </section>
  )
}
