import { useState } from 'react'
import { usePageContext } from '../../renderer/usePageContext.tsx'
import '../_storefront/storefront.css'
import type { BuyData as Data } from './+data.ts'
import { BuyData } from './BuyData.tsx'
import { MyOrders } from './MyOrders.tsx'

type Tab = 'buy' | 'orders'

export default function Page() {
  const pc = usePageContext() as ReturnType<typeof usePageContext> & { data: Data }
  const [tab, setTab] = useState<Tab>(pc.data.tab)
  const tabLink = (id: Tab, label: string) => (
    <li className={tab === id ? 'is-active' : ''} role="presentation">
      <a role="tab" id={`tab-${id}`} aria-selected={tab === id} aria-controls={`panel-${id}`} href={id === 'orders' ? '?tab=orders' : '?'} onClick={(e) => { e.preventDefault(); setTab(id) }}>
        {label}
      </a>
    </li>
  )
  return (
    <section className="sf-section">
      <div className="container">
        <h1 className="title">Buy Data</h1>
        <div className="tabs is-boxed" role="tablist" aria-label="Buy data or look up orders">
          <ul>
            {tabLink('buy', 'Buy Data')}
            {tabLink('orders', 'My Orders')}
          </ul>
        </div>
        <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
          {tab === 'buy' ? <BuyData data={pc.data} /> : <MyOrders />}
        </div>
      </div>
    </section>
  )
}
