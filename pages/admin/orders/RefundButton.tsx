import { useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { useEscape } from '../../../renderer/ui/useEscape.ts'
import type { AdminOrder } from '../../../server/services/orders/admin.ts'
import { useFocusTrap } from '../../../renderer/ui/useFocusTrap.ts'

/** The admin's Refund on a paid order that was not delivered: a reason is required; the server refunds once. */
export function RefundButton({ order, onRefunded }: { order: AdminOrder; onRefunded: (o: AdminOrder) => void }) {
  const toast = useToast()
  const [open, setOpen] = useState(false)
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  useEscape(() => setOpen(false), open && !busy)
  const trapRef = useFocusTrap(open)
  // Not while the vendor may still deliver it (the server refuses that too).
  if (order.paymentStatus !== 'SUCCESS' || order.delivered || order.deliveryStatus === 'QUEUED' || order.deliveryStatus === 'PROCESSING') return null

  async function submit(e: React.FormEvent) {
    e.preventDefault()
    if (!reason.trim()) {
      setError('Please give a reason for the refund')
      return
    }
    setBusy(true)
    setError(null)
    try {
      await api(`/api/admin/orders/${order.id}/refund`, { body: { reason: reason.trim() } })
      toast('Refund issued', 'success')
      setOpen(false)
      onRefunded({ ...order, paymentStatus: 'REFUNDED' })
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Refund failed')
    } finally {
      setBusy(false)
    }
  }

  const id = `refund-reason-${order.id}`
  return (
    <>
      <button
        className="button is-small is-danger is-light ml-2"
        onClick={() => setOpen(true)}
        aria-label={`Refund order to ${order.recipientNumber}`}
        data-testid="refund-open">
        Refund
      </button>
      {open ? (
        <div ref={trapRef} className="modal is-active" role="dialog" aria-modal="true" aria-labelledby={`${id}-title`}>
          <div className="modal-background" onClick={() => !busy && setOpen(false)} />
          <form className="modal-card" onSubmit={(e) => void submit(e)}>
            <header className="modal-card-head">
              <h2 className="modal-card-title" id={`${id}-title`}>
                Refund order
              </h2>
              <button type="button" className="delete" aria-label="Close" onClick={() => setOpen(false)} disabled={busy} />
            </header>
            <section className="modal-card-body">
              <p className="mb-3">The payer gets back what they paid for the order to {order.recipientNumber}; the agent's commission is reversed.</p>
              <div className="field">
                <label className="label" htmlFor={id}>
                  Reason
                </label>
                <div className="control">
                  <textarea
                    id={id}
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
