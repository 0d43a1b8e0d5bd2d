import { useEffect, useRef } from 'react'
import { api } from '../../renderer/api.ts'
import type { PaymentState } from './payment-texts.ts'

/** First look after 3 s, then half as long again each time, never more than 15 s apart. */
export const WATCH_FIRST_MS = 3000
export const WATCH_MAX_MS = 15_000

/**
 * While `watching` (the dialog is open, the payment pending and no manual check running), asks
 * GET /api/payment/status/:transactionId with backoff and hands each answer to `onAnswer`.
 * Stops when `watching` turns false (a final status, the dialog closed) or the transaction changes.
 * A failed look is simply tried again later: an unknown outcome stays pending.
 */
export function usePaymentWatch(transactionId: string | null, watching: boolean, onAnswer: (res: PaymentState) => void) {
  const latest = useRef(onAnswer)
  latest.current = onAnswer
  useEffect(() => {
    if (!transactionId || !watching) return
    let stopped = false
    let delay = WATCH_FIRST_MS
    let timer: ReturnType<typeof setTimeout>
    const look = async () => {
      try {
        const res = await api<PaymentState>(`/api/payment/status/${encodeURIComponent(transactionId)}`)
        if (stopped) return
        latest.current({ ...res, transactionId, paymentStatus: String(res.paymentStatus).toUpperCase() })
      } catch {
        // Network or server trouble: look again after the next, longer wait.
      }
      if (stopped) return
      delay = Math.min(Math.round(delay * 1.5), WATCH_MAX_MS)
      timer = setTimeout(look, delay)
    }
    timer = setTimeout(look, delay)
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [transactionId, watching])
}
