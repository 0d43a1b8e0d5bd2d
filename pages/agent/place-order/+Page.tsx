import { useEffect } from 'react'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { usePageContext } from '../../../renderer/usePageContext.tsx'
import { Gate } from '../_shared/Gate.tsx'
import { isActiveAgent } from '../../../renderer/format.ts'
import type { PlaceOrderData } from './+data.ts'
import { OrderForm } from './OrderForm.tsx'

export default function Page() {
  const pc = usePageContext() as ReturnType<typeof usePageContext> & { data: PlaceOrderData }
  const { agent, packages, method, walletBalance } = pc.data
  const toast = useToast()
  useEffect(() => {
    if (packages === null) toast('Failed to load packages', 'error')
  }, [packages, toast])
  return (
    <section>
      <h1 className="title">Place Order</h1>
      <p className="subtitle is-6">Buy data for your customers at your agent price.</p>
      <Gate agent={agent} />
      {isActiveAgent(agent) ? <OrderForm agent={agent} packages={packages ?? []} method={method} walletBalance={walletBalance} /> : null}
    </section>
  )
}
