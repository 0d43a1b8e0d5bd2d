import { useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { copyText } from '../_shared/format.ts'

/** The USSD agent PIN: shown only right after a reset (the server keeps only its hash). */
export function PinCard({ hasPin, onReset }: { hasPin: boolean; onReset: () => void }) {
  const toast = useToast()
  const [pin, setPin] = useState<string | null>(null)
  const [visible, setVisible] = useState(false)
  const [busy, setBusy] = useState(false)

  async function reset() {
    setBusy(true)
    try {
      const r = await api<{ pin: string }>('/api/agents/me/pin/reset', { method: 'POST', fallbackError: 'Failed to reset PIN' })
      setPin(r.pin)
      setVisible(true)
      toast('New PIN created. Keep it private: it is shown only now.', 'success')
      onReset()
    } catch (err) {
      toast(err instanceof ApiError && err.message ? err.message : 'Failed to reset PIN', 'error')
    } finally {
      setBusy(false)
    }
  }

  async function copy() {
    if (!pin) return
    if (await copyText(pin)) toast('PIN copied to clipboard', 'success')
    else toast('Unable to copy PIN', 'error')
  }

  return (
    <div className="card mb-4">
      <header className="card-header">
        <h2 className="card-header-title">USSD Agent PIN</h2>
      </header>
      <div className="card-content">
        <p className="mb-3">Use this 4-digit PIN to order by dialling the USSD code from your registered phone.</p>
        <p className="is-size-3 is-monospace mb-3" data-testid="pin-value" aria-live="polite">
          {pin ? (visible ? pin : '••••') : '••••'}
        </p>
        <p className="help mb-3">
          {pin
            ? 'Write it down now: for your security it cannot be shown again after you leave this page.'
            : hasPin
              ? 'You have a PIN. It is stored securely and cannot be shown; reset it to get a new one.'
              : 'You have no PIN yet. Reset PIN creates one.'}
        </p>
        <div className="buttons">
          {pin ? (
            <button className="button" aria-pressed={visible} onClick={() => setVisible(!visible)}>
              {visible ? 'Hide' : 'Show'}
            </button>
          ) : null}
          <button className={`button is-warning${busy ? ' is-loading' : ''}`} disabled={busy} onClick={() => void reset()} data-testid="reset-pin">
            Reset PIN
          </button>
          <button className="button is-light" disabled={!pin} onClick={() => void copy()} data-testid="copy-pin">
            Copy
          </button>
        </div>
      </div>
    </div>
  )
}
