import { useEffect, useRef, useState } from 'react'
import { formatCedis } from './format.ts'
import { roundGhs } from '../../server/lib/money.ts'

/**
 * 'Pay from wallet' takes the money at once, with no prompt on a phone to approve: so the first tap
 * asks once, with the amount and what it buys, and only 'Confirm' pays.
 */
export function WalletPayButton(p: {
  balance: number
  price: number | null
  /** What the money buys, e.g. '2.0GB MTN to 0551234567'. */
  summary: string
  disabled: boolean
  busy: boolean
  testId: string
  className?: string
  onConfirm(): void
}) {
  const [asking, setAsking] = useState(false)
  const confirmRef = useRef<HTMLButtonElement>(null)
  // A different bundle or recipient is another payment: it is asked about anew.
  useEffect(() => setAsking(false), [p.price, p.summary])
  useEffect(() => {
    if (asking) confirmRef.current?.focus()
  }, [asking])

  if (asking && p.price !== null) {
    return (
      <div
        className={`notification is-success is-light ${p.className ?? ''}`}
        role="group"
        aria-labelledby={`${p.testId}-question`}
        data-testid={`${p.testId}-confirm-box`}>
        <p id={`${p.testId}-question`} className="mb-2">
          Pay <strong>{formatCedis(p.price)}</strong> from your wallet for {p.summary}? Balance after: {formatCedis(roundGhs(p.balance - p.price))}.
        </p>
        <div className="buttons">
          <button
            ref={confirmRef}
            type="button"
            className={`button is-success${p.busy ? ' is-loading' : ''}`}
            disabled={p.busy}
            onClick={p.onConfirm}
            data-testid={`${p.testId}-confirm`}>
            Confirm {formatCedis(p.price)}
          </button>
          <button type="button" className="button" disabled={p.busy} onClick={() => setAsking(false)}>
            Cancel
          </button>
        </div>
      </div>
    )
  }
  return (
    <button
      type="button"
      className={`button is-success is-fullwidth ${p.className ?? ''}`}
      disabled={p.disabled || p.busy}
      onClick={() => setAsking(true)}
      data-testid={p.testId}>
      Pay from wallet (balance {formatCedis(p.balance)})
    </button>
  )
}
