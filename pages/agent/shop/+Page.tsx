import { useState } from 'react'
import { usePageContext } from '../../../renderer/usePageContext.tsx'
import { formatCedis } from '../../../server/lib/money.ts'
import type { ShopView } from '../../../server/services/shops/index.ts'
import { Gate } from '../_shared/Gate.tsx'
import { isActiveAgent } from '../../../renderer/format.ts'
import type { MyShopData } from './+data.ts'
import { CheckerPricesEditor } from './CheckerPricesEditor.tsx'
import { PricesEditor } from './PricesEditor.tsx'
import { SalesChart } from './SalesChart.tsx'
import { ShareCard } from './ShareCard.tsx'
import { ShopForm } from './ShopForm.tsx'
import { WhatsappOrders } from './WhatsappOrders.tsx'
import './shop.css'

export default function Page() {
  const pc = usePageContext() as ReturnType<typeof usePageContext> & { data: MyShopData }
  const { agent, mine, series, earnings, origin } = pc.data
  const [shop, setShop] = useState<ShopView | null>(mine?.shop ?? null)
  const url = shop ? `${origin}/shop/${shop.slug}` : null
  return (
    <section>
      <h1 className="title">My Shop</h1>
      <p className="subtitle is-6">
        Your own shop link with your prices: customers pay the gateway directly, and you earn the margin when each bundle is delivered.
      </p>
      <Gate agent={agent} />
      {isActiveAgent(agent) && mine ? (
        <>
          <div className="columns is-multiline">
            <div className="column is-12-tablet is-4-desktop">
              <div className="box has-text-centered">
                <p className="heading">Available earnings</p>
                <p className={`stat-value${(earnings ?? 0) < 0 ? ' has-text-danger' : ''}`} data-testid="shop-earnings">
                  {formatCedis(earnings ?? 0)}
                </p>
                {(earnings ?? 0) < 0 ? <p className="help">Below zero after a refund; your next margins make it up.</p> : null}
                <p className="mt-2">
                  <a href="/agent/payouts">Payout history</a>
                </p>
              </div>
              <div className="box">
                <p className="heading">All-time sales</p>
                <p>
                  {mine.figures.salesCount} {mine.figures.salesCount === 1 ? 'sale' : 'sales'}, {formatCedis(mine.figures.salesAmount)}
                </p>
                <p>Margin earned {formatCedis(mine.figures.marginEarned)}</p>
              </div>
            </div>
            <div className="column">
              {shop && url ? <ShareCard shop={shop} url={url} qrSvg={shop.slug === mine.shop?.slug ? (pc.data.qrSvg ?? null) : null} /> : null}
              {shop ? <WhatsappOrders shop={shop} chat={pc.data.chat ?? null} onSaved={setShop} /> : null}
              <ShopForm shop={shop} palette={mine.palette} origin={origin} onSaved={setShop} />
            </div>
          </div>
          {shop ? <PricesEditor lines={mine.prices} limits={mine.limits} /> : null}
          {shop?.open ? <CheckerPricesEditor lines={pc.data.checkers} /> : null}
          {shop ? <SalesChart days={series} /> : null}
        </>
      ) : null}
    </section>
  )
}
