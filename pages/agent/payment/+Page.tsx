import { useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { usePageContext } from '../../../renderer/usePageContext.tsx'
import type { AgentBase } from '../_shared/agent-data.ts'
import { copyText, digitsOnly, NETWORK_LABEL, NETWORKS, statusClass } from '../_shared/format.ts'
import { feePaidToast, feeStatusLabel, noFeeDue } from '../_shared/onboarding.ts'
import { formatCedis } from '../../../renderer/format.ts'
import { CodeField } from '../../_storefront/CodeField.tsx'
import { useInferredNetwork } from '../../_storefront/PayerFields.tsx'
import { useAgent, useFeeCheck } from '../_shared/useAgent.ts'

const OPEN = ['PENDING', 'IN_PROGRESS']

export default function Page() {
  const pc = usePageContext() as ReturnType<typeof usePageContext> & { data: AgentBase }
  const { fee, method } = pc.data
  const { agent, setAgent, refresh } = useAgent(pc.data.agent)
  const toast = useToast()
  const [phone, setPhone] = useState(() => digitsOnly(pc.user?.phone ?? pc.data.agent?.phone ?? ''))
  const [network, setNetwork] = useState('MTN')
  const [paying, setPaying] = useState(false)
  const [message, setMessage] = useState<string | null>(null)
  const [needsCode, setNeedsCode] = useState<'otp' | 'pin' | 'phone' | null>(null)
  const { check, checking } = useFeeCheck(setAgent)
  useInferredNetwork(phone, network, setNetwork)

  const status = agent?.paymentStatus ? agent.paymentStatus.toUpperCase() : null
  const txn = agent?.paymentTransactionId ?? null
  const paid = status === 'SUCCESS'
  const feeText = formatCedis(fee)
  const free = noFeeDue(agent)

  async function pay() {
    if (!agent) {
      toast('Agent ID not found. Please refresh the page.', 'error')
      return
    }
    if (method === 'momo' && fee > 0 && phone.length < 9) {
      toast('Please enter a valid phone number', 'error')
      return
    }
    setPaying(true)
    try {
      const r = await api<any>(`/api/agents/${agent.id}/payment/request`, {
        body: method === 'momo' ? { amount: fee, phone_number: phone, network } : { amount: fee },
        fallbackError: 'Payment request failed'
      })
      setAgent(r.agent)
      setMessage(r.message || null)
      setNeedsCode(r.needsCode ?? null)
      if (r.paymentStatus === 'SUCCESS') toast(r.gateway === 'none' ? r.message : feePaidToast(r.agent), 'success', 6000)
      else if (method === 'card' && r.gateway !== 'none') {
        const provider = r.providerLabel || 'Paystack'
        if (!r.authorizationUrl) toast(`${provider} authorization URL not received`, 'error')
        else {
          toast(`Redirecting to ${provider}...`, 'info')
          location.href = r.authorizationUrl
        }
      } else if (r.paymentStatus === 'FAILED') toast(`${(r.message || 'Payment failed').replace(/\.$/, '')}. You can retry payment.`, 'info')
      else toast(r.message || 'USSD prompt sent! Check your phone and complete payment.', 'info')
    } catch (err) {
      const body = err instanceof ApiError ? err.body : {}
      const text = String(body?.error ?? body?.info ?? '').replace(/\.$/, '')
      if (body?.canRetry) toast(`${text || 'Payment request failed'}. You can retry payment.`, 'info')
      else toast(text || 'Payment request failed', 'error')
      if (body?.message) setMessage(String(body.message))
      void refresh()
    } finally {
      setPaying(false)
    }
  }

  async function copyTxn() {
    if (!txn) return
    const ok = await copyText(txn)
    toast(ok ? 'Transaction ID copied to clipboard' : 'Unable to copy transaction ID', ok ? 'success' : 'error')
  }

  return (
    <section>
      <h1 className="title">Complete Registration Payment</h1>
      <p className="subtitle is-6">Pay the one-time agent registration fee to activate your account.</p>

      <div className="box">
        <div className="columns is-mobile is-multiline">
          <div className="column is-half-mobile">
            <p className="heading">Registration Fee</p>
            <p className="stat-value" data-testid="fee">
              {fee > 0 ? feeText : 'No fee'}
            </p>
          </div>
          <div className="column is-half-mobile">
            <p className="heading">Status</p>
            <span className={`tag is-medium ${status ? statusClass(status) : 'is-light'}`} data-testid="fee-status">
              {feeStatusLabel(status, agent)}
            </span>
          </div>
        </div>
      </div>

      {paid ? (
        <div className="notification is-success is-light" role="status" data-testid="fee-paid">
          <p className="has-text-weight-bold">{free ? 'No registration fee is due' : 'Payment verified'}</p>
          <p>
            {free ? 'Nothing to pay.' : 'Your registration payment is verified.'} Admin approval is required before you can place orders; it usually takes 24-48
            hours.
          </p>
          <a className="button is-success mt-3" href="/agent/dashboard">
            Go to Dashboard
          </a>
        </div>
      ) : (
        <div className="card mb-4">
          <header className="card-header">
            <p className="card-header-title">Payment Method</p>
          </header>
          <div className="card-content">
            {fee <= 0 ? (
              <p className="mb-4">No registration fee is due: continue to send your account for approval.</p>
            ) : method === 'momo' ? (
              <>
                <div className="field">
                  <label className="label" htmlFor="pay-phone">
                    Phone Number
                  </label>
                  <div className="control">
                    <input
                      id="pay-phone"
                      className="input"
                      inputMode="numeric"
                      autoComplete="tel"
                      placeholder="0241234567"
                      value={phone}
                      maxLength={12}
                      onChange={(e) => setPhone(digitsOnly(e.target.value))}
                    />
                  </div>
                  <p className="help">The mobile money number that receives the payment prompt.</p>
                </div>
                <div className="field">
                  <label className="label" htmlFor="pay-network">
                    Mobile Network
                  </label>
                  <div className="control">
                    <div className="select is-fullwidth">
                      <select id="pay-network" value={network} onChange={(e) => setNetwork(e.target.value)}>
                        {NETWORKS.map((n) => (
                          <option key={n} value={n}>
                            {NETWORK_LABEL[n]}
                          </option>
                        ))}
                      </select>
                    </div>
                  </div>
                </div>
              </>
            ) : (
              <p className="mb-4">You will be redirected to the secure card checkout to pay, then brought back here.</p>
            )}
            <div className="buttons">
              <button
                className={`button is-primary${paying ? ' is-loading' : ''}`}
                disabled={paying || !agent}
                onClick={() => void pay()}
                data-testid="pay-fee">
                {fee > 0 ? `Pay ${feeText}` : 'Continue'}
              </button>
              <button className={`button${checking ? ' is-loading' : ''}`} disabled={!txn || checking} onClick={() => void check()} data-testid="i-have-paid">
                I Have Paid
              </button>
            </div>
          </div>
        </div>
      )}

      {txn ? (
        <div className="box" data-testid="fee-transaction">
          <p className="heading">Transaction ID</p>
          <p className="is-monospace mb-2" data-testid="fee-txn">
            {txn}
          </p>
          <p className="mb-2">
            Status: <span className={`tag ${statusClass(status)}`}>{feeStatusLabel(status, agent)}</span>
          </p>
          {message && !paid ? (
            <p className="mb-3" role="status">
              {message}
            </p>
          ) : null}
          <div className="buttons">
            {status && (OPEN.includes(status) || status === 'FAILED' || status === 'EXPIRED') ? (
              OPEN.includes(status) ? (
                <button className={`button is-info${checking ? ' is-loading' : ''}`} disabled={checking} onClick={() => void check()}>
                  I Have Paid
                </button>
              ) : (
                <button className={`button is-warning${paying ? ' is-loading' : ''}`} disabled={paying} onClick={() => void pay()} data-testid="retry-fee">
                  Retry Payment
                </button>
              )
            ) : null}
            {status === 'PENDING' ? (
              <button className={`button${checking ? ' is-loading' : ''}`} disabled={checking} onClick={() => agent && void check(agent.id)}>
                Refresh Status
              </button>
            ) : null}
            <button className="button is-light" onClick={() => void copyTxn()}>
              Copy Transaction ID
            </button>
          </div>
          {status && OPEN.includes(status) && needsCode && txn ? (
            <CodeField
              transactionId={txn}
              needs={needsCode}
              instruction={message || 'Enter the code you received to continue.'}
              onAnswer={(next) => {
                setNeedsCode((next.needsCode as 'otp' | null) ?? null)
                setMessage(next.message || null)
              }}
            />
          ) : null}
          {status && OPEN.includes(status) ? (
            <div className="content mt-3">
              <p className="has-text-weight-bold mb-1">How to complete your payment</p>
              <ol>
                <li>A payment prompt has been sent to {phone || 'your phone'}.</li>
                <li>Enter your mobile money PIN on your phone to approve {feeText}.</li>
                <li>Come back here and tap I Have Paid.</li>
              </ol>
            </div>
          ) : null}
          {status === 'FAILED' || status === 'EXPIRED' ? (
            <p className="notification is-danger is-light mt-3">
              The payment did not go through. Retry Payment starts a new payment with a new transaction ID.
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  )
}
