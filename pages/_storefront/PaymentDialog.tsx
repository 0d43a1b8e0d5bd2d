import { useEffect, useRef, useState, type ReactNode } from 'react'
import { CodeField } from './CodeField.tsx'
import { formatCedis, statusClass } from './format.ts'
import { CHECK_FAILED_TOAST, READY, STATUS_TEXT, statusLabel, type PaymentState } from './payment-texts.ts'
import { usePaymentWatch } from './usePaymentWatch.ts'
import { useEscape } from '../../renderer/ui/useEscape.ts'
import { useToast } from '../../renderer/ui/Toasts.tsx'
import { useFocusTrap } from '../../renderer/ui/useFocusTrap.ts'

export type Busy = 'request' | 'check' | 'complete' | null

interface Props {
  open: boolean
  amount: number | null
  /** What is being paid for, e.g. '1.0GB MTN for 0241234567'. */
  summary: ReactNode
  payment: PaymentState | null
  busy: Busy
  /** The dialog's own Proceed is disabled e.g. when mobile money has no payer phone. */
  canProceed: boolean
  successText?: string
  completeLabel?: string
  /** Payer fields or redirect instructions, shown before the request. */
  children?: ReactNode
  onProceed(): void
  onCheck(): void
  /** A newer state of the same payment, found by the dialog's own watch (the parent keeps it). */
  onWatched(next: PaymentState): void
  onComplete(): void
  onRetry(): void
  onClose(): void
}

/** 'Complete Payment' until a request exists, then 'Payment Status' (spec sections 2 and 4). */
export function PaymentDialog(p: Props) {
  const closeRef = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (p.open) closeRef.current?.focus()
  }, [p.open])
  useEscape(p.onClose, p.open && !p.busy)
  const trapRef = useFocusTrap(p.open)
  const footRef = useRef<HTMLElement>(null)
  // When the focused button goes away (Proceed after the request, I Have Paid once final), focus
  // moves to the action that is there now instead of falling out of the dialog.
  const shownStatus = p.payment?.paymentStatus ?? null
  useEffect(() => {
    if (!p.open || p.busy || trapRef.current?.contains(document.activeElement)) return
    const buttons = [...(footRef.current?.querySelectorAll<HTMLButtonElement>('button:not([disabled])') ?? [])]
    buttons[buttons.length - 1]?.focus()
  }, [p.open, p.busy, shownStatus, trapRef])
  // The answer to a voucher/OTP, kept here so every dialog (buy, AFA, agent order) gets the field alone.
  const [codeAnswer, setCodeAnswer] = useState<{ tid: string; needsCode: string | null; message: string } | null>(null)
  const toast = useToast()
  // The dialog watches a pending payment itself; 'I Have Paid' stays as the manual check.
  const current = p.payment
  const pending = current?.paymentStatus === 'PENDING' || current?.paymentStatus === 'IN_PROGRESS'
  usePaymentWatch(current?.transactionId ?? null, p.open && pending && !p.busy, (res) => {
    if (!current || res.transactionId !== current.transactionId) return
    const next: PaymentState = { ...current, ...res, extTransactionId: res.extTransactionId ?? current.extTransactionId, needsCode: res.needsCode ?? null }
    if (
      next.paymentStatus === current.paymentStatus &&
      next.message === current.message &&
      next.extTransactionId === current.extTransactionId &&
      next.needsCode === (current.needsCode ?? null)
    )
      return
    p.onWatched(next)
    // A paid order is settled and delivered by the server already: the live status panel says so, and
    // no toast asks for a click that changes nothing (it outlived the 'Order placed' toast).
    if (next.paymentStatus === 'FAILED') toast(CHECK_FAILED_TOAST, 'error')
  })

  if (!p.open) return null
  const answered = codeAnswer && codeAnswer.tid === p.payment?.transactionId ? codeAnswer : null
  const needs = (answered ? answered.needsCode : p.payment?.needsCode) as 'otp' | 'pin' | 'phone' | null | undefined
  const status = p.payment?.paymentStatus ?? null
  const title = p.payment ? 'Payment Status' : 'Complete Payment'
  const statusText = !status ? READY : status === 'SUCCESS' && p.successText ? p.successText : (STATUS_TEXT[status] ?? p.payment?.message ?? '')
  const open = status === 'PENDING' || status === 'IN_PROGRESS'
  return (
    <div ref={trapRef} className="modal is-active" role="dialog" aria-modal="true" aria-labelledby="payment-dialog-title" data-testid="payment-dialog">
      <div className="modal-background" onClick={() => !p.busy && p.onClose()} />
      <div className="modal-card">
        <header className="modal-card-head">
          <h2 className="modal-card-title" id="payment-dialog-title">
            {title}
          </h2>
          <button ref={closeRef} className="delete" aria-label="Close" onClick={p.onClose} disabled={!!p.busy} />
        </header>
        <section className="modal-card-body sf-stack">
          <div className="sf-between">
            <span>Amount</span>
            <strong className="is-size-4" data-testid="payment-amount">
              {formatCedis(p.amount)}
            </strong>
          </div>
          <div className="sf-muted">{p.summary}</div>
          {!p.payment ? p.children : null}
          <div className="sf-status-panel" data-testid="payment-status-panel">
            {/* Only the badge and its text are announced; the code field and ids below are not. */}
            <div role="status" aria-live="polite" aria-atomic="true">
              {p.payment ? (
                <div className="sf-between sf-gap-bottom">
                  <span className="sf-mono" title={p.payment.transactionId} aria-hidden="true">
                    …{p.payment.transactionId.slice(-8)}
                  </span>
                  <span className={`tag ${statusClass(status)}`} data-testid="payment-status" data-status={status ?? ''}>
                    {statusLabel(status)}
                  </span>
                </div>
              ) : null}
              <p data-testid="payment-status-text">{statusText}</p>
            </div>
            {p.payment?.message && p.payment.message !== statusText && !(open && needs) && !answered ? <p className="sf-muted">{p.payment.message}</p> : null}
            {answered && !needs && answered.message ? (
              <p className="sf-muted" data-testid="payment-code-answer">
                {answered.message}
              </p>
            ) : null}
            {p.payment && open && needs ? (
              <CodeField
                transactionId={p.payment.transactionId}
                needs={needs}
                instruction={(answered ? null : p.payment.message) || (p.payment.message ?? 'Enter the code you received to continue.')}
                onAnswer={(next) => setCodeAnswer({ tid: p.payment!.transactionId, needsCode: next.needsCode, message: next.message })}
              />
            ) : null}
            {p.payment ? (
              <dl className="sf-gap-top sf-muted">
                <dt>Transaction ID</dt>
                <dd className="sf-mono">{p.payment.transactionId}</dd>
                <dt>External ID</dt>
                <dd className="sf-mono">{p.payment.extTransactionId || 'N/A'}</dd>
              </dl>
            ) : null}
          </div>
        </section>
        <footer ref={footRef} className="modal-card-foot sf-row" style={{ justifyContent: 'flex-end' }}>
          <button className="button" onClick={p.onClose} disabled={!!p.busy}>
            {p.payment ? 'Close' : 'Cancel'}
          </button>
          {!p.payment ? (
            <button className={`button is-primary${p.busy === 'request' ? ' is-loading' : ''}`} onClick={p.onProceed} disabled={!p.canProceed || !!p.busy}>
              Proceed to Payment
            </button>
          ) : null}
          {open ? (
            <button className={`button is-info${p.busy === 'check' ? ' is-loading' : ''}`} onClick={p.onCheck} disabled={!!p.busy}>
              I Have Paid
            </button>
          ) : null}
          {status === 'SUCCESS' ? (
            <button className={`button is-success${p.busy === 'complete' ? ' is-loading' : ''}`} onClick={p.onComplete} disabled={!!p.busy}>
              {p.completeLabel ?? 'Complete Order'}
            </button>
          ) : null}
          {status === 'FAILED' || status === 'EXPIRED' ? (
            <button className="button is-warning" onClick={p.onRetry} disabled={!!p.busy}>
              Retry Payment
            </button>
          ) : null}
        </footer>
      </div>
    </div>
  )
}
