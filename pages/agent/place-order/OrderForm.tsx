import { useEffect, useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { flashToast, useToast } from '../../../renderer/ui/Toasts.tsx'
import { usePageContext } from '../../../renderer/usePageContext.tsx'
import { formatCedis, roundGhs } from '../../../server/lib/money.ts'
import { PayerFields } from '../../_storefront/PayerFields.tsx'
import { WalletPayButton } from '../../_storefront/WalletPayButton.tsx'
import { PaymentDialog, type Busy } from '../../_storefront/PaymentDialog.tsx'
import { CHECK_FAILED_TOAST, CHECK_PENDING_TOAST, NO_TRANSACTION } from '../../_storefront/payment-texts.ts'
import type { PaymentState } from '../../_storefront/payment-texts.ts'
import { addRecent, loadRecent } from '../../_storefront/recent.ts'
import '../../_storefront/storefront.css'
import type { AgentView } from '../../../server/services/agents/index.ts'
import { digitsOnly, formatSize, NETWORK_LABEL, NETWORKS } from '../_shared/format.ts'
import type { OrderPackage } from './+data.ts'

/** Spec section 8: a message is info (and kept), else error, else info, else the fallback. */
function requestFailure(err: unknown, toast: ReturnType<typeof useToast>, fallback: string) {
  const b = err instanceof ApiError ? err.body : {}
  if (b?.message && b.message !== b.error) toast(String(b.message), 'info')
  else if (b?.error) toast(String(b.error), 'error')
  else if (b?.info) toast(String(b.info), 'info')
  else toast(fallback, 'error')
}

export function OrderForm({
  agent,
  packages,
  method,
  walletBalance
}: {
  agent: AgentView | null
  packages: OrderPackage[]
  method: 'card' | 'momo'
  walletBalance: number | null
}) {
  const { settings } = usePageContext()
  const toast = useToast()
  const closed = settings.platformOpen === false
  const [network, setNetwork] = useState<string>('MTN')
  const [packageId, setPackageId] = useState<number | null>(null)
  const [recipient, setRecipient] = useState('')
  const [recent, setRecent] = useState<string[]>([])
  const [open, setOpen] = useState(false)
  const [payment, setPayment] = useState<PaymentState | null>(null)
  const [orderId, setOrderId] = useState<number | null>(null)
  const [payerPhone, setPayerPhone] = useState(() => digitsOnly(agent?.phone ?? ''))
  const [payerNetwork, setPayerNetwork] = useState<string>('MTN')
  const [busy, setBusy] = useState<Busy>(null)
  const [walletBusy, setWalletBusy] = useState(false)

  useEffect(() => setRecent(loadRecent()), [])
  const list = packages.filter((p) => p.network === network).sort((a, b) => a.sizeMB - b.sizeMB)
  const pkg = packages.find((p) => p.id === packageId) ?? null
  const ready = !!pkg && recipient.trim() !== '' && !closed

  const resetPayment = () => {
    setPayment(null)
    setOrderId(null)
  }

  async function proceed() {
    if (!agent) return toast('Agent profile not loaded. Please refresh the page.', 'error')
    if (!pkg || !recipient.trim()) return toast('Please select package and enter recipient number', 'error')
    if (method === 'momo' && payerPhone.length < 9) return toast('Please enter payment phone number', 'error')
    setBusy('request')
    try {
      const body =
        method === 'momo'
          ? { packageId: pkg.id, recipientNumber: recipient, payerPhone, payerNetwork, price: pkg.price }
          : { packageId: pkg.id, recipientNumber: recipient, requestPayment: true, price: pkg.price }
      const r = await api<any>('/api/orders', { body, fallbackError: 'Payment request failed' })
      setOrderId(r.id)
      setPayment({
        transactionId: r.transactionId,
        paymentStatus: r.paymentStatus,
        message: r.message,
        extTransactionId: r.extTransactionId ?? null,
        needsCode: r.needsCode ?? null
      } as PaymentState)
      if (method === 'card' && r.paymentStatus !== 'FAILED') {
        const provider = r.providerLabel || 'Paystack'
        if (r.authorizationUrl) {
          toast(`Redirecting to ${provider}...`, 'info')
          location.href = r.authorizationUrl
        } else toast(`${provider} authorization URL not received`, 'error')
      }
    } catch (err) {
      requestFailure(err, toast, 'Payment request failed')
    } finally {
      setBusy(null)
    }
  }

  /** Paid at once from the wallet; the server checks the balance again under a lock. */
  async function payFromWallet() {
    if (!pkg || !recipient.trim()) return toast('Please select package and enter recipient number', 'error')
    setWalletBusy(true)
    try {
      await api<any>('/api/orders', {
        body: { packageId: pkg.id, recipientNumber: recipient, payFrom: 'wallet', price: pkg.price },
        fallbackError: 'Wallet payment failed'
      })
      toast(settings.agentSuccessMessage, 'success', 8000)
      setRecent(addRecent(recipient))
      location.href = '/agent/orders'
    } catch (err) {
      requestFailure(err, toast, 'Wallet payment failed')
      setWalletBusy(false)
    }
  }

  async function check() {
    if (!payment) return toast(NO_TRANSACTION, 'error')
    setBusy('check')
    try {
      const r = await api<any>(`/api/payment/status/${payment.transactionId}`)
      setPayment({
        ...payment,
        paymentStatus: r.paymentStatus,
        message: r.message,
        extTransactionId: r.extTransactionId ?? payment.extTransactionId,
        needsCode: r.needsCode ?? null
      })
      // SUCCESS: the dialog's status panel says it; the order is already settled, so no toast asks for a click.
      if (r.paymentStatus === 'SUCCESS') return
      if (r.paymentStatus === 'FAILED') toast(CHECK_FAILED_TOAST, 'error')
      else toast(r.message || CHECK_PENDING_TOAST, 'info')
    } catch (err) {
      const b = err instanceof ApiError ? err.body : {}
      toast(String(b?.message ?? b?.details ?? b?.error ?? 'Failed to check payment status'), 'error')
    } finally {
      setBusy(null)
    }
  }

  async function complete() {
    if (!orderId) return toast('No order ID found. Please try the payment process again.', 'error')
    if (payment?.paymentStatus !== 'SUCCESS') return toast('Payment must be successful before finalizing order', 'error')
    setBusy('complete')
    try {
      const r = await api<{ message: string; currentStatus?: string; info?: string }>(`/api/orders/${orderId}`, {
        method: 'PATCH',
        body: { paymentStatus: 'SUCCESS' },
        fallbackError: 'Failed to finalize order'
      })
      const st = r.currentStatus
      if (!st || st === 'SUCCESS') {
        flashToast(r.message || settings.agentSuccessMessage, 'success', 8000)
        setRecent(addRecent(recipient))
        setRecipient('')
        setPackageId(null)
        resetPayment()
        setOpen(false)
        location.href = '/agent/orders'
        return
      }
      toast([r.message, r.info].filter(Boolean).join(' '), st === 'FAILED' ? 'error' : 'info')
      if (st === 'EXPIRED') {
        resetPayment()
        setOpen(false)
      }
    } catch (err) {
      toast(err instanceof ApiError && err.message ? err.message : 'Failed to finalize order', 'error')
    } finally {
      setBusy(null)
    }
  }

  return (
    <div className="box">
      <div className="field">
        <label className="label" htmlFor="po-network">
          Network
        </label>
        <div className="select is-fullwidth">
          <select
            id="po-network"
            value={network}
            onChange={(e) => {
              setNetwork(e.target.value)
              setPackageId(null)
              resetPayment()
            }}>
            {NETWORKS.map((n) => (
              <option key={n} value={n}>
                {NETWORK_LABEL[n]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="field">
        <label className="label" htmlFor="po-package">
          Data Package
        </label>
        <div className="select is-fullwidth">
          <select
            id="po-package"
            value={packageId ?? ''}
            onChange={(e) => {
              setPackageId(e.target.value ? Number(e.target.value) : null)
              resetPayment()
            }}>
            <option value="">{list.length ? 'Select a package' : 'No packages for this network'}</option>
            {list.map((p) => (
              <option key={p.id} value={p.id}>
                {formatSize(p.sizeMB)} - {formatCedis(p.price)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="field">
        <label className="label" htmlFor="po-recipient">
          Recipient Number
        </label>
        <input
          id="po-recipient"
          className="input"
          inputMode="numeric"
          placeholder="0241234567"
          maxLength={12}
          value={recipient}
          onChange={(e) => {
            setRecipient(digitsOnly(e.target.value))
            resetPayment()
          }}
        />
        {recent.length ? (
          <div className="buttons are-small mt-2" aria-label="Recent numbers">
            <span className="is-size-7 mr-2">Recent:</span>
            {recent.map((n) => (
              <button
                key={n}
                type="button"
                className="button is-rounded is-light"
                onClick={() => {
                  setRecipient(n)
                  resetPayment()
                }}>
                {n}
              </button>
            ))}
          </div>
        ) : null}
      </div>
      {pkg ? (
        <p className="mb-3" data-testid="order-summary-line">
          {NETWORK_LABEL[pkg.network]} {formatSize(pkg.sizeMB)} for <strong>{formatCedis(pkg.price)}</strong>
          {pkg.regular > pkg.price ? <span className="ml-2 is-size-7 has-text-success">(save {formatCedis(roundGhs(pkg.regular - pkg.price))})</span> : null}
        </p>
      ) : null}
      {walletBalance !== null && !closed ? (
        <WalletPayButton
          className="mb-2"
          balance={walletBalance}
          price={pkg?.price ?? null}
          summary={pkg ? `${NETWORK_LABEL[pkg.network]} ${formatSize(pkg.sizeMB)} to ${recipient.trim()}` : ''}
          disabled={!ready || (pkg !== null && walletBalance < pkg.price)}
          busy={walletBusy}
          onConfirm={() => void payFromWallet()}
          testId="pay-wallet"
        />
      ) : null}
      {walletBalance !== null && pkg && walletBalance < pkg.price ? (
        <p className="help mb-2">
          Your wallet balance does not cover this bundle. <a href="/agent/wallet">Top up</a> or pay by mobile money.
        </p>
      ) : null}
      <button className="button is-primary is-fullwidth" disabled={!ready} onClick={() => setOpen(true)} data-testid="proceed">
        {closed ? 'Platform Closed' : 'Proceed to Payment'}
      </button>

      <PaymentDialog
        open={open}
        amount={pkg?.price ?? null}
        summary={
          pkg ? (
            <>
              {formatSize(pkg.sizeMB)} {NETWORK_LABEL[pkg.network]} for {recipient}
            </>
          ) : null
        }
        payment={payment}
        busy={busy}
        canProceed={method === 'card' || payerPhone.length >= 9}
        onProceed={() => void proceed()}
        onCheck={() => void check()}
        onWatched={(next) => setPayment((cur) => (cur?.transactionId === next.transactionId ? next : cur))}
        onComplete={() => void complete()}
        onRetry={() => {
          resetPayment()
          setOpen(false)
        }}
        onClose={() => setOpen(false)}>
        {method === 'momo' ? (
          <>
            <PayerFields idPrefix="po" phone={payerPhone} network={payerNetwork} onPhone={setPayerPhone} onNetwork={setPayerNetwork} />
            <p className="sf-muted">You will receive a USSD prompt on the payment phone. Enter your mobile money PIN to approve, then tap I Have Paid.</p>
          </>
        ) : (
          <p className="sf-muted">You will be redirected to the secure card checkout to pay, then brought back to finish the order.</p>
        )}
      </PaymentDialog>
    </div>
  )
}
