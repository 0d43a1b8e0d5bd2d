import { useState } from 'react'
import { api, ApiError } from '../../../../renderer/api.ts'
import { useToast } from '../../../../renderer/ui/Toasts.tsx'
import { formatCedis } from '../../../../server/lib/money.ts'
import type { BatchView } from '../../../../server/services/bulk/index.ts'

/**
 * A batch paid by mobile money while its payment is open (the page's poll picks up the outcome) or
 * after it failed; nothing for a batch paid. "I Have Paid" asks the gateway now, like a top-up.
 */
export function PaymentState({ batch }: { batch: BatchView }) {
  const toast = useToast()
  const [busy, setBusy] = useState(false)
  if (batch.status === 'CANCELLED') {
    return (
      <p className="notification is-danger is-light" role="status" data-testid="bulk-cancelled">
        The mobile money payment did not go through: this bulk order was cancelled and nothing was sent.
      </p>
    )
  }
  if (batch.status !== 'AWAITING_PAYMENT' || !batch.paymentTransactionId) return null
  const tid = batch.paymentTransactionId

  async function check() {
    setBusy(true)
    try {
      const r = await api<{ paymentStatus: string; message: string }>(`/api/payment/status/${tid}`)
      if (r.paymentStatus === 'SUCCESS') location.reload()
      else
        toast(
          r.message || 'Payment is still pending. Approve the prompt on your phone.',
          r.paymentStatus === 'FAILED' || r.paymentStatus === 'EXPIRED' ? 'error' : 'info'
        )
    } catch (err) {
      toast(err instanceof ApiError && err.message ? err.message : 'Failed to check payment status', 'error')
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="notification is-info is-light" role="status" data-testid="bulk-awaiting">
      <p>
        <strong>Awaiting payment</strong> of {formatCedis(batch.total)}: approve the mobile money prompt on your phone. The bundles go out as soon as it is
        paid.
      </p>
      <div className="buttons mt-3">
        <button
          type="button"
          className={`button is-primary${busy ? ' is-loading' : ''}`}
          disabled={busy}
          onClick={() => void check()}
          data-testid="bulk-check-payment">
          I Have Paid
        </button>
      </div>
    </div>
  )
}
