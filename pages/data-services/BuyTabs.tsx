import { useState, type ReactNode } from 'react'
import { Tabs } from '../../renderer/ui/Tabs.tsx'
import { LazyMyOrders, LazySavedOrders } from './LazyOrders.tsx'

type Tab = 'buy' | 'orders'

/** 'Buy Data' and 'My Orders' tabs: the public shop's and every agent shop's. */
export function BuyTabs({ initial, buy }: { initial: Tab; buy: ReactNode }) {
  const [tab, setTab] = useState<Tab>(initial)
  return (
    <>
      <Tabs
        className="is-boxed"
        label="Buy data or look up orders"
        current={tab}
        onChange={setTab}
        tabs={[
          { id: 'buy', label: 'Buy Data', href: '?' },
          { id: 'orders', label: 'My Orders', href: '?tab=orders' }
        ]}
      />
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === 'buy' ? buy : <LazyMyOrders />}
      </div>
      <LazySavedOrders />
    </>
  )
}
