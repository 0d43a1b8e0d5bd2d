import { useState } from 'react'
import { Tabs } from '../../renderer/ui/Tabs.tsx'
import { usePageContext } from '../../renderer/usePageContext.tsx'
import '../_storefront/storefront.css'
import type { BuyData as Data } from './+data.ts'
import { BuyData } from './BuyData.tsx'
import { MyOrders } from './MyOrders.tsx'

type Tab = 'buy' | 'orders'

export default function Page() {
  const pc = usePageContext() as ReturnType<typeof usePageContext> & { data: Data }
  const [tab, setTab] = useState<Tab>(pc.data.tab)
  return (
    <section className="sf-section">
      <div className="container">
        <h1 className="title">Buy Data</h1>
        <Tabs
          className="is-boxed"
          label="Buy data or look up orders"
          current={tab}
          onChange={setTab}
          tabs={[{ id: 'buy', label: 'Buy Data', href: '?' }, { id: 'orders', label: 'My Orders', href: '?tab=orders' }]}
        />
        <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
          {tab === 'buy' ? <BuyData data={pc.data} /> : <MyOrders />}
        </div>
      </div>
    </section>
  )
}
