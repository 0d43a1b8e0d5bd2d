import { useState } from 'react'
import { api, ApiError } from '../api.ts'
import { useToast } from './Toasts.tsx'
import { useEscape } from './useEscape.ts'
import { useFocusTrap } from './useFocusTrap.ts'

/**
 * An admin's Refund: a button opening a dialog that asks for the required reason and posts it to
 * `url`; the server decides the amount and refunds once, and its refusal is shown in the dialog.
 */
export function RefundDialog({
  id,
  url,
  title,
  text,
  label,
  onRefunded
}: {
  /** Unique on the page: names the dialog's fields. */
  id: string
  url: string
  title: string
  /** What the refund does, in a sentence. */
  text: string
  /** The open button's accessible name. */
  label: string
  onRefunded: () => void
}) {
  const toast = useToast()
  const [open, setOpen] = useState(false)
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  useEscape(() => setOpen(false), open && !busy)
  const trapRef = useFocusTrap(open)

  async function submit(e: React.FormEvent) {
    e.preventDefault()
    if (!reason.trim()) {
      setError('Please give a reason for the refund')
      return
    }
    setBusy(true)
    setError(null)
    try {
      await api(url, { body: { reason: reason.trim() } })
      toast('Refund issued', 'success')
      setOpen(false)
      onRefunded()
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Refund failed')
    } finally {
      setBusy(false)
    }
  }

  const field = `refund-reason-${id}`
  return (
    <>
      <button className="button is-small is-danger is-light ml-2" onClick={() => setOpen(true)} aria-label={label} data-testid="refund-open">
        Refund
      </button>
      {open ? (
        <div ref={trapRef} className="modal is-active" role="dialog" aria-modal="true" aria-labelledby={`${field}-title`}>
          <div className="modal-background" onClick={() => !busy && setOpen(false)} />
          <form className="modal-card" onSubmit={(e) => void submit(e)}>
            <header className="modal-card-head">
              <h2 className="modal-card-title" id={`${field}-title`}>
                {title}
              </h2>
              <button type="button" className="delete" aria-label="Close" onClick={() => setOpen(false)} disabled={busy} />
            </header>
            <section className="modal-card-body">
              <p className="mb-3">{text}</p>
              <div className="field">
                <label className="label" htmlFor={field}>
                  Reason
                </label>
                <div className="control">
                  <textarea
                    id={field}
                    className={`textarea${error ? ' is-danger' : ''}`}
                    rows={3}
                    maxLength={500}
                    value={reason}
                    onChange={(e) => setReason(e.target.value)}
                  />
                </div>
                {error ? (
                  <p className="help is-danger" role="alert">
                    {error}
                  </p>
                ) : null}
              </div>
            </section>
            <footer className="modal-card-foot" style={{ justifyContent: 'flex-end', gap: '.5rem' }}>
              <button type="button" className="button" onClick={() => setOpen(false)} disabled={busy}>
                Cancel
              </button>
              <button type="submit" className={`button is-danger${busy ? ' is-loading' : ''}`} disabled={busy} data-testid="refund-submit">
                Refund
              </button>
            </footer>
          </form>
        </div>
      ) : null}
    </>
  )
}
