import { useEffect, useState } from 'react'
import { api, ApiError } from '../../renderer/api.ts'

const LABEL = { otp: 'Voucher or OTP code', pin: 'PIN', phone: 'Phone number' } as const

interface Props {
  transactionId: string
  /** What the gateway asks for (Paystack send_otp / send_pin / send_phone). */
  needs: 'otp' | 'pin' | 'phone'
  /** The gateway's own instruction, e.g. "Dial *110# to generate a voucher...". */
  instruction: string
  /** The payment's new state after the code was sent. */
  onAnswer(next: { needsCode: string | null; message: string; paymentStatus: string }): void
}

/**
 * The code the gateway asks for before it can charge (a Telecel Cash voucher, an OTP): shown in
 * every payment dialog with the gateway's instruction, sent to POST /api/payment/:id/code.
 */
export function CodeField({ transactionId, needs, instruction, onAnswer }: Props) {
  const [code, setCode] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => setCode(''), [transactionId])
  const id = `payment-code-${transactionId}`

  async function submit(e: React.FormEvent) {
    e.preventDefault()
    if (!code.trim()) {
      setError('Please enter the code you received')
      return
    }
    setBusy(true)
    setError(null)
    try {
      const r = await api<any>(`/api/payment/${encodeURIComponent(transactionId)}/code`, {
        body: { code: code.trim() },
        fallbackError: 'The code could not be sent'
      })
      if (r.needsCode) setError(r.message || 'The code was not accepted. Please try again.')
      else setCode('')
      onAnswer({ needsCode: r.needsCode ?? null, message: r.message ?? '', paymentStatus: r.paymentStatus })
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'The code could not be sent')
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="box sf-gap-top" onSubmit={(e) => void submit(e)} data-testid="payment-code-form">
      <p className="mb-2" data-testid="payment-code-instruction">
        {instruction}
      </p>
      <div className="field">
        <label className="label" htmlFor={id}>
          {LABEL[needs]}
        </label>
        <div className="field has-addons">
          <div className="control is-expanded">
            <input
              id={id}
              className={`input${error ? ' is-danger' : ''}`}
              inputMode={needs === 'phone' ? 'tel' : 'numeric'}
              autoComplete="one-time-code"
              maxLength={12}
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\s/g, ''))}
              aria-describedby={error ? `${id}-error` : undefined}
              aria-invalid={!!error}
              data-testid="payment-code-input"
            />
          </div>
          <div className="control">
            <button type="submit" className={`button is-primary${busy ? ' is-loading' : ''}`} disabled={busy} data-testid="payment-code-submit">
              Send code
            </button>
          </div>
        </div>
        {error ? (
          <p className="help is-danger" id={`${id}-error`} role="alert">
            {error}
          </p>
        ) : null}
      </div>
    </form>
  )
}
