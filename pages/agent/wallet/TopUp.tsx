import { useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { formatCedis } from '../../../server/lib/money.ts'
import type { AgentView } from '../../../server/services/agents/index.ts'
import { PayerFields } from '../../_storefront/PayerFields.tsx'
import { digitsOnly } from '../_shared/format.ts'

interface Pending {
  transactionId: string
  paymentStatus: string
  message: string
}

const errorText = (err: unknown, fallback: string) => (err instanceof ApiError && err.message ? err.message : fallback)

/** Top-up by mobile money (prompt, then check) or card (redirect), through the one payments service. */
export function TopUp({
  agent,
  method,
  limits,
  onCredited
}: {
  agent: AgentView
  method: 'card' | 'momo'
  limits: { min: number; max: number }
  onCredited(balance: number): void
}) {
  const toast = useToast()
  const [amount, setAmount] = useState('')
  const [phone, setPhone] = useState(() => digitsOnly(agent.phone ?? ''))
  const [network, setNetwork] = useState('MTN')
  const [pending, setPending] = useState<Pending | null>(null)
  const [busy, setBusy] = useState<'request' | 'check' | null>(null)

  async function request(e: React.FormEvent) {
    e.preventDefault()
    const value = Number(amount)
    if (!amount || !Number.isFinite(value) || value < limits.min || value > limits.max) {
      return toast(`Top-up amount must be between ${formatCedis(limits.min)} and ${formatCedis(limits.max)}`, 'error')
    }
    setBusy('request')
    try {
      const body = method === 'momo' ? { amount: value, payerPhone: phone, payerNetwork: network } : { amount: value }
      const r = await api<any>('/api/wallet/topup', { body, fallbackError: 'Top-up request failed' })
      if (r.paymentStatus === 'FAILED') return toast(r.message || 'Top-up request failed', 'error')
      if (method === 'card' && r.authorizationUrl) {
        toast(`Redirecting to ${r.providerLabel || 'Paystack'}...`, 'info')
        location.href = r.authorizationUrl
        return
      }
      setPending({ transactionId: r.transactionId, paymentStatus: r.paymentStatus, message: r.message })
      toast(r.message || 'Approve the prompt on your phone, then tap I Have Paid.', 'info')
    } catch (err) {
      toast(errorText(err, 'Top-up request failed'), 'error')
    } finally {
      setBusy(null)
    }
  }

  async function check() {
    if (!pending) return
    setBusy('check')
    try {
      const r = await api<any>(`/api/payment/status/${pending.transactionId}`)
      if (r.paymentStatus === 'SUCCESS') {
        const w = await api<{ balance: number }>('/api/wallet')
        toast(`Top-up successful. Your balance is ${formatCedis(w.balance)}.`, 'success')
        setPending(null)
        setAmount('')
        onCredited(w.balance)
      } else if (r.paymentStatus === 'FAILED' || r.paymentStatus === 'EXPIRED') {
        toast(r.message || 'The top-up payment failed.', 'error')
        setPending(null)
      } else {
        setPending({ ...pending, paymentStatus: r.paymentStatus, message: r.message })
        toast(r.message || 'Payment is still pending. Approve the prompt on your phone.', 'info')
      }
    } catch (err) {
      toast(errorText(err, 'Failed to check payment status'), 'error')
    } finally {
      setBusy(null)
    }
  }

  return (
    <form className="box" onSubmit={(e) => void request(e)} aria-labelledby="topup-title">
      <h2 className="title is-5" id="topup-title">
        Top up
      </h2>
      <div className="field">
        <label className="label" htmlFor="topup-amount">
          Amount (GH₵)
        </label>
        <div className="control">
          <input
            id="topup-amount"
            className="input"
            type="number"
            inputMode="decimal"
            min={limits.min}
            max={limits.max}
            step="0.01"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            disabled={!!pending}
            aria-describedby="topup-help"
          />
        </div>
        <p className="help" id="topup-help">
          Between {formatCedis(limits.min)} and {formatCedis(limits.max)}.
        </p>
      </div>
      {method === 'momo' ? (
        <PayerFields idPrefix="topup" phone={phone} network={network} onPhone={setPhone} onNetwork={setNetwork} />
      ) : (
        <p className="help mb-3">You will pay on the secure card checkout and come back here.</p>
      )}
      {pending ? (
        <div className="notification is-info is-light" role="status" data-testid="topup-pending">
          <p>{pending.message || 'Approve the prompt on your phone, then tap I Have Paid.'}</p>
          <div className="buttons mt-3">
            <button
              type="button"
              className={`button is-primary${busy === 'check' ? ' is-loading' : ''}`}
              disabled={!!busy}
              onClick={() => void check()}
              data-testid="topup-check">
              I Have Paid
            </button>
            <button type="button" className="button" disabled={!!busy} onClick={() => setPending(null)}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <button type="submit" className={`button is-primary${busy === 'request' ? ' is-loading' : ''}`} disabled={!!busy} data-testid="topup-submit">
          Top up
        </button>
      )}
    </form>
  )
}
