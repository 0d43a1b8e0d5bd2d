import { usePageContext } from '../../renderer/usePageContext.tsx'
import '../_storefront/storefront.css'
import type { BuyData as Data } from './+data.ts'
import { BuyData } from './BuyData.tsx'
import { BuyTabs } from './BuyTabs.tsx'

export default function Page() {
  const pc = usePageContext() as ReturnType<typeof usePageContext> & { data: Data }
  return (
    <section className="sf-section">
      <div className="container">
        <h1 className="title">Buy Data</h1>
        <BuyTabs initial={pc.data.tab} buy={<BuyData data={pc.data} />} />
      </div>
    </section>
  )
}
