import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react'
import { useToast } from '../../renderer/ui/Toasts.tsx'
import { usePageContext } from '../../renderer/usePageContext.tsx'
import { EMAIL_RE, formatSize, isActiveAgent, NETWORK_LABEL } from '../_storefront/format.ts'
import { PayerFields } from '../_storefront/PayerFields.tsx'
import type { Busy } from '../_storefront/PaymentDialog.tsx'
import { LazyPaymentDialog, preloadPaymentDialog } from '../_storefront/LazyPaymentDialog.tsx'
import type { PaymentState } from '../_storefront/payment-texts.ts'
import { loadRecent } from '../_storefront/recent.ts'

import type { BuyData as Data, StorePackage } from './+data.ts'
import type { BuyPaymentForm, PlacedOrder } from './buy-payment.ts'
import { NetworkPackages } from './NetworkPackages.tsx'
import { OrderSummary } from './OrderSummary.tsx'
import { RecipientField } from './RecipientField.tsx'
import { networkMismatchWarning, parseGhanaMobile } from '../../server/lib/phone.ts'

// Only a signed-in agent pays from a wallet: a visitor's first load carries none of it (ADR 0044).
const WalletPay = lazy(() => import('./WalletPay.tsx').then((m) => ({ default: m.WalletPay })))

// What the dialog's buttons do comes with the dialog: a first screen runs none of it.
const loadPayment = () => import('./buy-payment.ts')
const preloadPayment = () => {
  preloadPaymentDialog()
  void loadPayment().catch(() => undefined)
}

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
    // Only once an order was placed: the device's list (read offline, with My Orders) comes with that code.
    if (placed && seenStatus)
      void import('../_storefront/seen-orders.ts').then(
        (m) => m.rememberOrders([{ ...placed, paymentStatus: seenStatus, paymentTransactionId: seenTransaction ?? null }]),
        () => undefined
      )
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

  /** Runs one of the dialog's calls with the form as this render has it; a chunk that cannot be fetched is said like a request that cannot. */
  function withPayment(run: (m: Awaited<ReturnType<typeof loadPayment>>, form: BuyPaymentForm) => Promise<void>) {
    const form: BuyPaymentForm = {
      pkg,
      shop,
      card,
      isAgent,
      price,
      recipient,
      email,
      payerPhone,
      payerNetwork,
      payment,
      orderId,
      successMessage: settings.buySuccessMessage,
      toast,
      setBusy,
      setPriceNotice,
      setOrderId,
      setPlaced,
      setPayment,
      setPaidFor,
      setRepriced,
      setRecent,
      setDialog,
      resetForm
    }
    return loadPayment().then(
      (m) => run(m, form),
      () => toast('Network error. Check your connection and try again.', 'error')
    )
  }
  const proceed = () => withPayment((m, form) => m.placeOrder(form))
  const complete = () => withPayment((m, form) => m.finishOrder(form))
  const check = useCallback(
    () =>
      loadPayment().then(
        (m) => m.checkPayment({ payment, toast, setBusy, setPayment }),
        () => toast('Network error. Check your connection and try again.', 'error')
      ),
    [payment, toast]
  )

  // Why 'Proceed to Payment' cannot go on yet, said next to it (spec texts) rather than a silent disabled button.
  const blocker = closed ? 'Purchases are temporarily disabled' : missingForOrder(pkg, recipient, parsedRecipient)
  const canSubmit = !blocker && !busy
  return (
    <div className="columns">
      <div className="column is-7">
        <form
          onFocusCapture={preloadPayment}
          onPointerDownCapture={preloadPayment}
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
