import { lazy, Suspense, type ComponentProps } from 'react'

const load = () => import('./PaymentDialog.tsx')
const Dialog = lazy(() => load().then((m) => ({ default: m.PaymentDialog })))

/**
 * Starts fetching the dialog's code before it is needed (the buyer began filling in the form), so it
 * opens without a wait; a public page's first load carries none of it (ADR 0044: less to parse before
 * the page answers a tap).
 */
export const preloadPaymentDialog = () => void load().catch(() => undefined)

/** The payment dialog, its code fetched on first use: nothing is rendered while it is closed. */
export function LazyPaymentDialog(props: ComponentProps<typeof Dialog>) {
  if (!props.open) return null
  return (
    <Suspense fallback={null}>
      <Dialog {...props} />
    </Suspense>
  )
}
