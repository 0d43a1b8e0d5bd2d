import { useEffect, useState } from 'react'
import { api, ApiError } from '../../renderer/api.ts'
import { useToast } from '../../renderer/ui/Toasts.tsx'
import { WalletPayButton } from '../_storefront/WalletPayButton.tsx'

/**
 * 'Pay from wallet' for a signed-in, active agent on the buy page. The balance is read
 * after hydration, so anonymous visitors' pages are unchanged; the server checks it again.
 */
export function WalletPay({
  packageId,
  recipient,
  price,
  summary,
  disabled,
  onPaid
}: {
  packageId: number | null
  recipient: string
  price: number | null
  summary: string
  disabled: boolean
  onPaid(message: string): void
}) {
  const toast = useToast()
  const [balance, setBalance] = useState<number | null>(null)
  const [busy, setBusy] = useState(false)
  useEffect(() => {
    api<{ balance: number }>('/api/wallet')
      .then((w) => setBalance(w.balance))
      .catch(() => setBalance(null))
  }, [])
  if (balance === null) return null
  const short = price !== null && balance < price
  async function pay() {
    if (!packageId || !recipient.trim()) return toast('Please select package and enter recipient number', 'error')
    setBusy(true)
    try {
      const r = await api<{ order: { id: number } }>('/api/orders', {
        body: { packageId, recipientNumber: recipient.trim(), payFrom: 'wallet' },
        fallbackError: 'Wallet payment failed'
      })
      const w = await api<{ balance: number }>('/api/wallet')
      setBalance(w.balance)
      onPaid(`Order #${r.order.id} paid from your wallet.`)
    } catch (err) {
      toast(err instanceof ApiError && err.message ? err.message : 'Wallet payment failed', 'error')
    } finally {
      setBusy(false)
    }
  }
  return (
    <>
      <WalletPayButton
        className="mt-2"
        balance={balance}
        price={price}
        summary={summary}
        disabled={disabled || short || !packageId}
        busy={busy}
        onConfirm={() => void pay()}
        testId="buy-pay-wallet"
      />
      {short ? (
        <p className="help">
          Your wallet balance does not cover this bundle. <a href="/agent/wallet">Top up</a>
        </p>
      ) : null}
    </>
  )
}
