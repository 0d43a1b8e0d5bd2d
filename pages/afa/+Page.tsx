import { useState } from 'react'
import { api, ApiError } from '../../renderer/api.ts'
import { whatsappLink } from '../../renderer/ui/links.ts'
import { useToast } from '../../renderer/ui/Toasts.tsx'
import { usePageContext } from '../../renderer/usePageContext.tsx'
import { digitsOnly, EMAIL_RE, formatCedis } from '../_storefront/format.ts'
import { PayerFields } from '../_storefront/PayerFields.tsx'
import type { Busy } from '../_storefront/PaymentDialog.tsx'
import { LazyPaymentDialog, preloadPaymentDialog } from '../_storefront/LazyPaymentDialog.tsx'
import {
  AFA_SUCCESS_TEXT,
  CHECK_FAILED,
  CHECK_FAILED_TOAST,
  CHECK_PENDING_TOAST,
  NO_TRANSACTION,
  PAYMENT_REQUEST_FAILED,
  newTransactionId,
  type PaymentState
} from '../_storefront/payment-texts.ts'
import '../_storefront/storefront.css'
import type { AfaData } from './+data.ts'

const SUCCESS = 'AFA registration completed successfully! We will process your application shortly.'

export default function Page() {
  const toast = useToast()
  const pc = usePageContext() as ReturnType<typeof usePageContext> & { data: AfaData }
  const { settings } = pc
  const card = settings.paymentGateway === 'paystack'
  const fee = Number(settings.afaRegistrationFee ?? 0)
  // A fee of 0 is free: no payment step, the form registers at once.
  const free = !(fee > 0)
  const closed = settings.platformOpen === false
  const wa = whatsappLink(settings.whatsappNumber)
  const [fullName, setFullName] = useState('')
  const [ghCard, setGhCard] = useState('')
  const [phone, setPhone] = useState('')
  const [email, setEmail] = useState('')
  const [payerPhone, setPayerPhone] = useState('')
  const [payerNetwork, setPayerNetwork] = useState('MTN')
  const [error, setError] = useState<string | null>(null)
  const [dialog, setDialog] = useState(false)
  const [payment, setPayment] = useState<PaymentState | null>(null)
  const [busy, setBusy] = useState<Busy>(null)

  function openDialog() {
    setError(null)
    if (closed) return setError('Platform is currently closed')
    if (!fullName.trim() || !ghCard.trim() || !phone.trim() || (card && !free ? !email.trim() : false)) return setError('Please fill all fields')
    if (phone.length < 9) return setError('Please enter a valid phone number')
    if (free) return void registerFree()
    if (card && !EMAIL_RE.test(email.trim().toLowerCase())) return setError('Please enter a valid email address for payment')
    if (!card && !payerPhone.trim()) return setError('Please enter payment phone number')
    setPayment(null)
    setDialog(true)
  }

  async function proceed() {
    if (!card && payerPhone.length < 9) {
      toast('Please enter a valid phone number', 'error')
      return
    }
    setBusy('request')
    try {
      const res = await api<PaymentState & { gateway: string; authorizationUrl: string | null; providerLabel: string }>('/api/payment/request', {
        body: {
          type: 'afa_registration',
          fullName: fullName.trim(),
          ghCard: ghCard.trim(),
          phone,
          transactionId: newTransactionId(),
          ...(card ? { email: email.trim().toLowerCase() } : { phone_number: payerPhone, network: payerNetwork })
        },
        fallbackError: PAYMENT_REQUEST_FAILED
      })
      setPayment(res)
      if (res.gateway === 'paystack' && res.paymentStatus !== 'FAILED' && res.paymentStatus !== 'SUCCESS') {
        if (!res.authorizationUrl) {
          toast(`${res.providerLabel} authorization URL not received`, 'error')
          return
        }
        toast(`Redirecting to ${res.providerLabel}...`, 'info')
        window.location.href = res.authorizationUrl
        return
      }
      if (res.paymentStatus === 'FAILED') toast(res.message || PAYMENT_REQUEST_FAILED, 'error')
    } catch (err) {
      toast(err instanceof ApiError ? err.message : PAYMENT_REQUEST_FAILED, 'error')
    } finally {
      setBusy(null)
    }
  }

  async function check() {
    if (!payment?.transactionId) return toast(NO_TRANSACTION, 'error')
    setBusy('check')
    try {
      const res = await api<PaymentState>(`/api/payment/status/${encodeURIComponent(payment.transactionId)}`)
      const status = String(res.paymentStatus).toUpperCase()
      setPayment((p) => (p ? { ...p, ...res, paymentStatus: status } : p))
      if (status === 'SUCCESS') toast('Payment successful! Click "Complete Registration" to finalize.', 'success')
      else if (status === 'FAILED') toast(CHECK_FAILED_TOAST, 'error')
      else toast(res.message || CHECK_PENDING_TOAST, 'info')
    } catch (err) {
      toast(err instanceof ApiError ? err.message : CHECK_FAILED, 'error')
    } finally {
      setBusy(null)
    }
  }

  /** No fee: the server settles a zero payment at once, then the registration is recorded against it. */
  async function registerFree() {
    setBusy('complete')
    try {
      const res = await api<PaymentState>('/api/payment/request', {
        body: {
          type: 'afa_registration',
          fullName: fullName.trim(),
          ghCard: ghCard.trim(),
          phone,
          transactionId: newTransactionId(),
          ...(email.trim() ? { email: email.trim().toLowerCase() } : {})
        },
        fallbackError: 'Failed to create registration'
      })
      if (String(res.paymentStatus).toUpperCase() !== 'SUCCESS') {
        setError(res.message || 'Failed to create registration')
        return
      }
      await record(res.transactionId)
    } catch (err) {
      setError(err instanceof ApiError && err.message ? err.message : 'Failed to create registration')
    } finally {
      setBusy(null)
    }
  }

  async function complete() {
    if (payment?.paymentStatus !== 'SUCCESS') return toast('Payment must be successful before completing registration', 'error')
    setBusy('complete')
    try {
      await record(payment.transactionId)
    } catch (err) {
      toast(err instanceof ApiError && err.message ? err.message : 'Failed to create registration', 'error')
    } finally {
      setBusy(null)
    }
  }

  async function record(transactionId: string) {
    await api('/api/afa', {
      body: {
        fullName: fullName.trim(),
        ghCard: ghCard.trim(),
        phone,
        email: email.trim().toLowerCase() || undefined,
        paymentStatus: 'SUCCESS',
        paymentTransactionId: transactionId
      },
      fallbackError: 'Failed to create registration'
    })
    toast(SUCCESS, 'success', 8000)
    setFullName('')
    setGhCard('')
    setPhone('')
    setEmail('')
    setPayerPhone('')
    setDialog(false)
    setPayment(null)
    setTimeout(() => {
      window.location.href = '/'
    }, 1500)
  }

  return (
    <section className="sf-section">
      <div className="container">
        <h1 className="title">AFA Registration</h1>
        <p className="subtitle is-6">Register for AFA with your Ghana card details.</p>
        <div className="columns">
          <div className="column is-7">
            {fee > 0 ? (
              <div className="notification is-info is-light" data-testid="afa-fee">
                Registration fee: <strong>{formatCedis(fee)}</strong>
              </div>
            ) : null}
            <form
              onFocusCapture={preloadPaymentDialog}
              onPointerDownCapture={preloadPaymentDialog}
              className="box sf-stack"
              noValidate
              onSubmit={(e) => {
                e.preventDefault()
                openDialog()
              }}
              aria-describedby={error ? 'afa-error' : undefined}>
              {error ? (
                <div className="notification is-danger" id="afa-error" role="alert">
                  {error}
                </div>
              ) : null}
              <div className="field">
                <label className="label" htmlFor="afa-name">
                  Full name
                </label>
                <div className="control">
                  <input id="afa-name" className="input" autoComplete="name" value={fullName} onChange={(e) => setFullName(e.target.value)} maxLength={120} />
                </div>
              </div>
              <div className="field">
                <label className="label" htmlFor="afa-card">
                  GH card number
                </label>
                <div className="control">
                  <input
                    id="afa-card"
                    className="input"
                    placeholder="GHA-000000000-0"
                    value={ghCard}
                    onChange={(e) => setGhCard(e.target.value.toUpperCase())}
                    maxLength={40}
                  />
                </div>
              </div>
              <div className="field">
                <label className="label" htmlFor="afa-phone">
                  Phone number
                </label>
                <div className="control">
                  <input
                    id="afa-phone"
                    className="input"
                    inputMode="numeric"
                    autoComplete="tel"
                    placeholder="0241234567"
                    value={phone}
                    onChange={(e) => setPhone(digitsOnly(e.target.value))}
                  />
                </div>
              </div>
              {free ? null : card ? (
                <div className="field">
                  <label className="label" htmlFor="afa-email">
                    Payment email
                  </label>
                  <div className="control">
                    <input id="afa-email" className="input" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
                  </div>
                </div>
              ) : (
                <PayerFields idPrefix="afa" phone={payerPhone} network={payerNetwork} onPhone={setPayerPhone} onNetwork={setPayerNetwork} />
              )}
              <button
                type="submit"
                className={`button is-primary is-fullwidth is-medium${busy === 'complete' && free ? ' is-loading' : ''}`}
                disabled={closed || !!busy}>
                {closed ? 'Platform Closed' : 'Register'}
              </button>
            </form>
          </div>
          <div className="column is-5">
            <aside className="card">
              <div className="card-content sf-stack">
                <h2 className="title is-5">Need help?</h2>
                <p>
                  AFA registration needs your full name as on your Ghana card, the card number and an active phone number.{' '}
                  {free ? 'Registration is free: we process it as soon as you submit the form.' : 'We process registrations after payment.'}
                </p>
                {wa ? (
                  <a className="button is-success is-fullwidth" href={wa} target="_blank" rel="noopener noreferrer">
                    Chat with support on WhatsApp
                  </a>
                ) : null}
              </div>
            </aside>
          </div>
        </div>
      </div>
      <LazyPaymentDialog
        open={dialog}
        amount={fee}
        summary={`AFA registration for ${fullName.trim()}`}
        payment={payment}
        busy={busy}
        canProceed={card || payerPhone.length >= 9}
        successText={AFA_SUCCESS_TEXT}
        completeLabel="Complete Registration"
        onProceed={proceed}
        onCheck={check}
        onWatched={(next) => setPayment((cur) => (cur?.transactionId === next.transactionId ? next : cur))}
        onComplete={complete}
        onRetry={() => {
          setDialog(false)
          setPayment(null)
        }}
        onClose={() => setDialog(false)}>
        {card ? (
          <p className="notification is-info is-light">You will be taken to the {pc.data.providerLabel} checkout to pay, then brought back.</p>
        ) : (
          <PayerFields idPrefix="afa-dialog" phone={payerPhone} network={payerNetwork} onPhone={setPayerPhone} onNetwork={setPayerNetwork} />
        )}
      </LazyPaymentDialog>
    </section>
  )
}
