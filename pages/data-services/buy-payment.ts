import type { Dispatch, SetStateAction } from 'react'
import { api, ApiError } from '../../renderer/api.ts'
import type { useToast } from '../../renderer/ui/Toasts.tsx'
import { formatCedis } from '../_storefront/format.ts'
import type { Busy } from '../_storefront/PaymentDialog.tsx'
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
import { addRecent } from '../_storefront/recent.ts'
import type { SeenOrder } from '../_storefront/seen-orders.ts'
import type { StorePackage } from './+data.ts'

// The buy form's calls once the buyer has opened the payment dialog: placing the order with its payment request,
// asking the payment's status, finishing the order. No first screen runs them, so they come with the dialog's code
// (BuyData.tsx loads them on demand, and fetches them as soon as the buyer starts on the form).

interface PatchOutcome {
  message?: string
  currentStatus?: string
  info?: string
}
export type PlacedOrder = Omit<SeenOrder, 'seenAt' | 'paymentStatus' | 'paymentTransactionId'>
type Set<T> = Dispatch<SetStateAction<T>>

/** The form as the buyer left it, and the setters of its state, from the render that was tapped. */
export interface BuyPaymentForm {
  pkg: StorePackage | undefined
  shop?: { slug: string }
  card: boolean
  isAgent: boolean
  price: number | null
  recipient: string
  email: string
  payerPhone: string
  payerNetwork: string
  payment: PaymentState | null
  orderId: number | null
  successMessage: string
  toast: ReturnType<typeof useToast>
  setBusy: Set<Busy>
  setPriceNotice: Set<string | null>
  setOrderId: Set<number | null>
  setPlaced: Set<PlacedOrder | null>
  setPayment: Set<PaymentState | null>
  setPaidFor: Set<string | null>
  setRepriced: Set<Record<number, number>>
  setRecent: Set<string[]>
  setDialog: Set<boolean>
  resetForm: () => void
}

export async function placeOrder(f: BuyPaymentForm) {
  const { pkg, shop, card, isAgent, price, toast } = f
  if (!pkg) return
  if (!card && f.payerPhone.length < 9) {
    toast('Please enter a valid phone number', 'error')
    return
  }
  f.setBusy('request')
  f.setPriceNotice(null)
  try {
    const res = await api<{ id: number; payment: PaymentState & { gateway: string; authorizationUrl: string | null; providerLabel: string } }>(
      shop ? `/api/shops/${encodeURIComponent(shop.slug)}/orders` : '/api/orders',
      {
        body: {
          packageId: pkg.id,
          ...(shop ? { price } : {}),
          recipientNumber: f.recipient.trim(),
          transactionId: newTransactionId(),
          ...(card
            ? { email: isAgent ? undefined : f.email.trim().toLowerCase(), requestPayment: true }
            : { payerPhone: f.payerPhone, payerNetwork: f.payerNetwork })
        },
        fallbackError: PAYMENT_REQUEST_FAILED
      }
    )
    f.setOrderId(res.id)
    f.setPlaced({
      id: res.id,
      network: pkg.network,
      packageName: pkg.name,
      dataSizeMB: pkg.sizeMB,
      amount: price,
      recipientNumber: f.recipient.trim(),
      createdAt: new Date().toISOString()
    })
    f.setPayment(res.payment)
    f.setPaidFor(`${pkg.id}:${f.recipient.trim()}`)
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
      f.setRepriced((r) => ({ ...r, [pkg.id]: err.body.price }))
      f.setPriceNotice(
        `The price of this bundle has changed to ${formatCedis(err.body.price)}. Nothing was charged. Check the new price and press Proceed to pay it.`
      )
      return
    }
    toast(err instanceof ApiError ? err.message : PAYMENT_REQUEST_FAILED, 'error')
  } finally {
    f.setBusy(null)
  }
}

export async function checkPayment(f: Pick<BuyPaymentForm, 'payment' | 'toast' | 'setBusy' | 'setPayment'>) {
  const { payment, toast } = f
  if (!payment?.transactionId) {
    toast(NO_TRANSACTION, 'error')
    return
  }
  f.setBusy('check')
  try {
    const res = await api<PaymentState>(`/api/payment/status/${encodeURIComponent(payment.transactionId)}`)
    const status = String(res.paymentStatus).toUpperCase()
    f.setPayment((p) => (p ? { ...p, ...res, paymentStatus: status } : p))
    // SUCCESS: the dialog's status panel says it; the order is already settled, so no toast asks for a click.
    if (status === 'SUCCESS') return
    if (status === 'FAILED') toast(CHECK_FAILED_TOAST, 'error')
    else toast(res.message || CHECK_PENDING_TOAST, 'info')
  } catch (err) {
    const body = err instanceof ApiError ? err.body : {}
    toast(body?.message || body?.details || CHECK_FAILED, 'error')
  } finally {
    f.setBusy(null)
  }
}

export async function finishOrder(f: BuyPaymentForm) {
  const { payment, orderId, toast } = f
  if (payment?.paymentStatus !== 'SUCCESS') {
    toast('Payment must be successful before finalizing order', 'error')
    return
  }
  if (!orderId) {
    toast('No order ID found. Please try the payment process again.', 'error')
    return
  }
  f.setBusy('complete')
  try {
    const res = await api<PatchOutcome>(`/api/orders/${orderId}`, {
      method: 'PATCH',
      body: { paymentStatus: 'SUCCESS' },
      fallbackError: 'Failed to finalize order'
    })
    const status = res.currentStatus
    const text = [res.message, res.info].filter(Boolean).join(' ')
    if (!status || status === 'SUCCESS') {
      toast(res.message || f.successMessage, 'success', 8000)
      f.setRecent(addRecent(f.recipient.trim()))
      f.resetForm()
    } else if (status === 'EXPIRED') {
      toast(text, 'error')
      f.setDialog(false)
      f.setPayment(null)
    } else {
      toast(text, status === 'FAILED' ? 'error' : 'info')
      f.setPayment((p) => (p ? { ...p, paymentStatus: status } : p))
    }
  } catch (err) {
    toast(err instanceof ApiError ? err.message : 'Failed to finalize order', 'error')
  } finally {
    f.setBusy(null)
  }
}
