import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react'
import { api, ApiError } from '../../renderer/api.ts'
import { useToast } from '../../renderer/ui/Toasts.tsx'
import { usePageContext } from '../../renderer/usePageContext.tsx'
import { EMAIL_RE, formatCedis, formatSize, isActiveAgent, NETWORK_LABEL } from '../_storefront/format.ts'
import { PayerFields } from '../_storefront/PayerFields.tsx'
import type { Busy } from '../_storefront/PaymentDialog.tsx'
import { LazyPaymentDialog, preloadPaymentDialog } from '../_storefront/LazyPaymentDialog.tsx'
import {
  CHECK_FAILED,
  CHECK_FAILED_TOAST,
  CHECK_PENDING_TOAST,
  NO_TRANSACTION,
  PAYMENT_REQUEST_FAILED,
  SHOP_RETURN_KEY,
  newTransactionId,
  type PaymentState
} from '../_storefront/payment-texts.ts'
import { addRecent, loadRecent } from '../_storefront/recent.ts'
import { rememberOrders, type SeenOrder } from '../_storefront/seen-orders.ts'

import type { BuyData as Data, StorePackage } from './+data.ts'
import { NetworkPackages } from './NetworkPackages.tsx'
import { OrderSummary } from './OrderSummary.tsx'
import { RecipientField } from './RecipientField.tsx'
import { networkMismatchWarning, parseGhanaMobile } from '../../server/lib/phone.ts'

// Only a signed-in agent pays from a wallet: a visitor's first load carries none of it (ADR 0044).
const WalletPay = lazy(() => import('./WalletPay.tsx').then((m) => ({ default: m.WalletPay })))

interface PatchOutcome {
  message?: string
  currentStatus?: string
  info?: string
}
type PlacedOrder = Omit<SeenOrder, 'seenAt' | 'paymentStatus' | 'paymentTransactionId'>

/**
 * An agent's shop sells through this same form: its packages carry the shop's price as
 * priceUser, the order goes to the shop's endpoint with the price shown, and a 409 brings the new
 * price to confirm again. The buyer there is the shop's customer, whoever is signed in.
 */
export interface ShopMode {
  slug: string
}

/** What the form still lacks before an order (spec texts), in the order the buyer is told it; null when nothing. */
function missingForOrder(pkg: StorePackage | undefined, recipient: string, parsed: ReturnType<typeof parseGhanaMobile> | null): string | null {
  if (!pkg && !recipient.trim()) return 'Please select package and enter recipient number'
  if (!pkg) return 'Please select a package'
  if (!recipient.trim()) return 'Enter recipient number'
  return parsed && !parsed.ok ? parsed.error : null
}

export function BuyData({ data, shop }: { data: Data; shop?: ShopMode }) {
  const toast = useToast()
  const { settings, user } = usePageContext()
  const closed = settings.platformOpen === false
  const card = settings.paymentGateway === 'paystack'
  const isAgent = !shop && user?.role === 'AGENT'
  const agentPricing = isAgent && !!user?.agent?.approved
  const [network, setNetwork] = useState<string>(data.network)
  const [packageId, setPackageId] = useState<number | null>(null)
  const [recipient, setRecipient] = useState('')
  const [recipientTouched, setRecipientTouched] = useState(false)
  const [recent, setRecent] = useState<string[]>([])
  const [email, setEmail] = useState('')
  const [payerPhone, setPayerPhone] = useState('')
  const [payerNetwork, setPayerNetwork] = useState('MTN')
  const [error, setError] = useState<string | null>(null)
  const [dialog, setDialog] = useState(false)
  const [payment, setPayment] = useState<PaymentState | null>(null)
  const [orderId, setOrderId] = useState<number | null>(null)
  const [busy, setBusy] = useState<Busy>(null)
  const [paidFor, setPaidFor] = useState<string | null>(null)
  // Shop prices the server said changed since the page was rendered (409): shown, then confirmed again.
  const [repriced, setRepriced] = useState<Record<number, number>>({})
  const [priceNotice, setPriceNotice] = useState<string | null>(null)
  // The order this form placed, as the buyer saw it: kept on the device with each status it reaches (offline reading).
  const [placed, setPlaced] = useState<PlacedOrder | null>(null)

  useEffect(() => setRecent(loadRecent()), [])
  const seenStatus = payment?.paymentStatus
  const seenTransaction = payment?.transactionId
  useEffect(() => {
    if (placed && seenStatus) rememberOrders([{ ...placed, paymentStatus: seenStatus, paymentTransactionId: seenTransaction ?? null }])
  }, [placed, seenStatus, seenTransaction])

  const shownPackages = useMemo(
    () => data.packages.map((p) => (repriced[p.id] !== undefined ? { ...p, priceUser: repriced[p.id]! } : p)),
    [data.packages, repriced]
  )
  const pkg: StorePackage | undefined = shownPackages.find((p) => p.id === packageId && p.network === network)
  const parsedRecipient = recipient.trim() ? parseGhanaMobile(recipient) : null
  // Shown once the number is complete enough to judge (or the field was left), not at the first digit.
  const recipientError = parsedRecipient && !parsedRecipient.ok && (recipientTouched || recipient.length >= 10) ? parsedRecipient.error : null
  const recipientWarning = parsedRecipient?.ok ? networkMismatchWarning(recipient, network) : null
  const price = pkg ? (agentPricing && pkg.priceAgent !== null ? pkg.priceAgent : pkg.priceUser) : null

  function chooseNetwork(n: string) {
    setNetwork(n)
    setPackageId(null)
  }

  function resetForm() {
    setPackageId(null)
    setRecipient('')
    setEmail('')
    setPayment(null)
    setOrderId(null)
    setDialog(false)
  }

  function openDialog() {
    setError(null)
    setPriceNotice(null)
    const missing = missingForOrder(pkg, recipient, parsedRecipient)
    if (missing) {
      if (parsedRecipient && !parsedRecipient.ok) setRecipientTouched(true)
      return setError(missing)
    }
    if (!pkg) return
    if (closed) return setError('Purchases are temporarily disabled')
    if (card && !isAgent && !EMAIL_RE.test(email.trim().toLowerCase())) return setError(`Please enter a valid email address for ${data.providerLabel} payment`)
    // A prompt still waiting for this same purchase is shown again rather than replaced by a second charge.
    const waiting = payment && (payment.paymentStatus === 'PENDING' || payment.paymentStatus === 'IN_PROGRESS')
    if (!(waiting && paidFor === `${pkg.id}:${recipient.trim()}`)) {
      setPayment(null)
      setOrderId(null)
    }
    setDialog(true)
  }

  async function proceed() {
    if (!pkg) return
    if (!card && payerPhone.length < 9) {
      toast('Please enter a valid phone number', 'error')
      return
    }
    setBusy('request')
    setPriceNotice(null)
    try {
      const res = await api<{ id: number; payment: PaymentState & { gateway: string; authorizationUrl: string | null; providerLabel: string } }>(
        shop ? `/api/shops/${encodeURIComponent(shop.slug)}/orders` : '/api/orders',
        {
          body: {
            packageId: pkg.id,
            ...(shop ? { price } : {}),
            recipientNumber: recipient.trim(),
            transactionId: newTransactionId(),
            ...(card ? { email: isAgent ? undefined : email.trim().toLowerCase(), requestPayment: true } : { payerPhone, payerNetwork })
          },
          fallbackError: PAYMENT_REQUEST_FAILED
        }
      )
      setOrderId(res.id)
      setPlaced({
        id: res.id,
        network: pkg.network,
        packageName: pkg.name,
        dataSizeMB: pkg.sizeMB,
        amount: price,
        recipientNumber: recipient.trim(),
        createdAt: new Date().toISOString()
      })
      setPayment(res.payment)
      setPaidFor(`${pkg.id}:${recipient.trim()}`)
      if (res.payment.gateway === 'paystack' && res.payment.paymentStatus !== 'FAILED' && res.payment.paymentStatus !== 'SUCCESS') {
        if (!res.payment.authorizationUrl) {
          toast(`${res.payment.providerLabel} authorization URL not received`, 'error')
          return
        }
        toast(`Redirecting to ${res.payment.providerLabel}...`, 'info')
        // The checkout returns to /payment-callback, which sends a shop's buyer back to the shop.
        if (shop) sessionStorage.setItem(SHOP_RETURN_KEY, `/shop/${shop.slug}`)
        else sessionStorage.removeItem(SHOP_RETURN_KEY)
        window.location.href = res.payment.authorizationUrl
        return
      }
      if (res.payment.paymentStatus === 'FAILED') toast(res.payment.message || PAYMENT_REQUEST_FAILED, 'error')
    } catch (err) {
      if (shop && err instanceof ApiError && err.status === 409 && typeof err.body?.price === 'number') {
        // Nothing was charged: the new price is shown and the buyer confirms it (or not) with Proceed.
        setRepriced((r) => ({ ...r, [pkg.id]: err.body.price }))
        setPriceNotice(
          `The price of this bundle has changed to ${formatCedis(err.body.price)}. Nothing was charged. Check the new price and press Proceed to pay it.`
        )
        return
      }
      toast(err instanceof ApiError ? err.message : PAYMENT_REQUEST_FAILED, 'error')
    } finally {
      setBusy(null)
    }
  }

  const check = useCallback(async () => {
    if (!payment?.transactionId) {
      toast(NO_TRANSACTION, 'error')
      return
    }
    setBusy('check')
    try {
      const res = await api<PaymentState>(`/api/payment/status/${encodeURIComponent(payment.transactionId)}`)
      const status = String(res.paymentStatus).toUpperCase()
      setPayment((p) => (p ? { ...p, ...res, paymentStatus: status } : p))
      // SUCCESS: the dialog's status panel says it; the order is already settled, so no toast asks for a click.
      if (status === 'SUCCESS') return
      if (status === 'FAILED') toast(CHECK_FAILED_TOAST, 'error')
      else toast(res.message || CHECK_PENDING_TOAST, 'info')
    } catch (err) {
      const body = err instanceof ApiError ? err.body : {}
      toast(body?.message || body?.details || CHECK_FAILED, 'error')
    } finally {
      setBusy(null)
    }
  }, [payment, toast])

  async function complete() {
    if (payment?.paymentStatus !== 'SUCCESS') {
      toast('Payment must be successful before finalizing order', 'error')
      return
    }
    if (!orderId) {
      toast('No order ID found. Please try the payment process again.', 'error')
      return
    }
    setBusy('complete')
    try {
      const res = await api<PatchOutcome>(`/api/orders/${orderId}`, {
        method: 'PATCH',
        body: { paymentStatus: 'SUCCESS' },
        fallbackError: 'Failed to finalize order'
      })
      const status = res.currentStatus
      const text = [res.message, res.info].filter(Boolean).join(' ')
      if (!status || status === 'SUCCESS') {
        toast(res.message || settings.buySuccessMessage, 'success', 8000)
        setRecent(addRecent(recipient.trim()))
        resetForm()
      } else if (status === 'EXPIRED') {
        toast(text, 'error')
        setDialog(false)
        setPayment(null)
      } else {
        toast(text, status === 'FAILED' ? 'error' : 'info')
        setPayment((p) => (p ? { ...p, paymentStatus: status } : p))
      }
    } catch (err) {
      toast(err instanceof ApiError ? err.message : 'Failed to finalize order', 'error')
    } finally {
      setBusy(null)
    }
  }

  // Why 'Proceed to Payment' cannot go on yet, said next to it (spec texts) rather than a silent disabled button.
  const blocker = closed ? 'Purchases are temporarily disabled' : missingForOrder(pkg, recipient, parsedRecipient)
  const canSubmit = !blocker && !busy
  return (
    <div className="columns">
      <div className="column is-7">
        <form
          onFocusCapture={preloadPaymentDialog}
          onPointerDownCapture={preloadPaymentDialog}
          className="box sf-stack"
          onSubmit={(e) => {
            e.preventDefault()
            openDialog()
          }}
          noValidate
          aria-describedby={error ? 'buy-error' : undefined}>
          {error ? (
            <div className="notification is-danger" id="buy-error" role="alert">
              {error}
            </div>
          ) : null}
          {isAgent && !isActiveAgent(user?.agent) ? (
            <div className="notification is-warning">Your agent account must be paid and approved before you can place orders.</div>
          ) : null}
          <NetworkPackages
            packages={shownPackages}
            network={network}
            onNetwork={chooseNetwork}
            selected={packageId}
            onSelect={setPackageId}
            agentPricing={agentPricing}
          />
          <RecipientField
            value={recipient}
            onChange={setRecipient}
            onLeave={() => setRecipientTouched(true)}
            error={recipientError}
            warning={recipientWarning}
            recent={recent}
          />
          {card && !isAgent ? (
            <div className="field">
              <label className="label" htmlFor="email">
                Payment email
              </label>
              <div className="control">
                <input
                  id="email"
                  className="input"
                  type="email"
                  autoComplete="email"
                  placeholder="you@example.com"
                  value={email}
                  onChange={(e) => setEmail(e.target.value)}
                />
              </div>
              <p className="help">Needed for the {data.providerLabel} card checkout.</p>
            </div>
          ) : null}
          {!card ? <PayerFields idPrefix="buy" phone={payerPhone} network={payerNetwork} onPhone={setPayerPhone} onNetwork={setPayerNetwork} /> : null}
          <button
            type="submit"
            className="button is-primary is-fullwidth is-medium"
            disabled={!canSubmit}
            aria-describedby={blocker ? 'proceed-why' : undefined}>
            {closed ? 'Platform Closed' : 'Proceed to Payment'}
          </button>
          {isAgent && isActiveAgent(user?.agent) ? (
            <Suspense fallback={null}>
              <WalletPay
                packageId={pkg?.id ?? null}
                recipient={recipient}
                price={price}
                summary={pkg ? `${NETWORK_LABEL[pkg.network]} ${formatSize(pkg.sizeMB)} to ${recipient.trim()}` : ''}
                disabled={closed || !recipient.trim()}
                onPaid={(m) => {
                  toast(`${m} ${settings.agentSuccessMessage}`, 'success', 8000)
                  resetForm()
                }}
              />
            </Suspense>
          ) : null}
          {blocker ? (
            <p className="help has-text-centered" id="proceed-why">
              {blocker}
            </p>
          ) : null}
        </form>
      </div>
      <div className="column is-5">
        <OrderSummary network={network} pkg={pkg} recipient={recipient} card={card} price={price} />
      </div>
      <LazyPaymentDialog
        open={dialog}
        amount={price}
        summary={pkg ? `${formatSize(pkg.sizeMB)} ${NETWORK_LABEL[pkg.network]} for ${recipient}` : ''}
        payment={payment}
        busy={busy}
        canProceed={card || parseGhanaMobile(payerPhone).ok}
        onProceed={proceed}
        onCheck={check}
        onWatched={(next) => setPayment((cur) => (cur?.transactionId === next.transactionId ? next : cur))}
        onComplete={complete}
        onRetry={() => {
          setDialog(false)
          setPayment(null)
          setOrderId(null)
        }}
        onClose={() => {
          setDialog(false)
          if (payment?.paymentStatus !== 'PENDING' && payment?.paymentStatus !== 'IN_PROGRESS') setPayment(null)
        }}>
        {priceNotice ? (
          <p className="notification is-warning" role="alert" data-testid="price-changed">
            {priceNotice}
          </p>
        ) : null}
        {card ? (
          <p className="notification is-info is-light">You will be taken to the {data.providerLabel} checkout to pay by card, then brought back here.</p>
        ) : (
          <>
            <p className="notification is-info is-light">
              A mobile-money prompt will be sent to the payment phone. Approve it with your PIN, then click I Have Paid.
            </p>
            <PayerFields idPrefix="dialog" phone={payerPhone} network={payerNetwork} onPhone={setPayerPhone} onNetwork={setPayerNetwork} />
          </>
        )}
      </LazyPaymentDialog>
    </div>
  )
}
