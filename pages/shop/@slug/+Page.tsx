import { lazyHydrated } from '../../../renderer/ui/lazy-hydrated.tsx'
import { usePageContext } from '../../../renderer/usePageContext.tsx'
import '../../_storefront/storefront.css'
import { BuyData } from '../../data-services/BuyData.tsx'
import { BuyTabs } from '../../data-services/BuyTabs.tsx'
import { LazyMyOrders } from '../../data-services/LazyOrders.tsx'
import type { ShopData } from './+data.ts'

// Below the bundles and only in some shops: its code stays off the shop's first load.
const CheckerBuy = lazyHydrated(() => import('../../checkers/_parts/CheckerBuy.tsx').then((m) => m.CheckerBuy))

/** An agent's shop: the public buy flow and order lookup at the shop's prices, under the shop's own name and colour. */
export default function Page() {
  const pc = usePageContext() as ReturnType<typeof usePageContext> & { data: ShopData }
  const { shop, whatsappUrl, checkers, chatUrl } = pc.data
  return (
    <>
      {/* The accent passed the server's contrast check against white, so this band reads in light and dark mode. */}
      <header className="shop-band" style={{ background: shop.accent, color: '#fff' }} data-testid="shop-band">
        <div className="container">
          <h1 className="title is-3" style={{ color: '#fff' }}>
            {shop.name}
          </h1>
          {shop.description ? <p className="shop-description">{shop.description}</p> : null}
          <div className="buttons mt-3">
            {chatUrl ? (
              <a className="button is-small is-white" href={chatUrl} target="_blank" rel="noopener noreferrer" data-testid="shop-chat-order">
                Order on WhatsApp
              </a>
            ) : null}
            {whatsappUrl ? (
              <a className="button is-small is-white is-outlined" href={whatsappUrl} target="_blank" rel="noopener noreferrer">
                Chat with the shop on WhatsApp
              </a>
            ) : null}
          </div>
        </div>
      </header>
      <section className="sf-section">
        <div className="container">
          {!shop.open ? (
            <div className="box has-text-centered" role="status" data-testid="shop-closed">
              <h2 className="title is-4">This shop is closed at the moment.</h2>
              <p className="mb-4">Nothing can be bought here for now. You can still look up an order, or buy at the main shop.</p>
              <a className="button is-primary" href="/data-services">
                Go to the main shop
              </a>
              <div className="sf-gap-top has-text-left">
                <LazyMyOrders />
              </div>
            </div>
          ) : (
            <BuyTabs initial={pc.data.tab} buy={<BuyData data={pc.data} shop={{ slug: shop.slug }} />} />
          )}
          {shop.open && checkers.some((p) => p.inStock) ? (
            <section className="sf-gap-top" aria-labelledby="shop-checkers-title" data-testid="shop-checkers">
              <h2 className="title is-4" id="shop-checkers-title">
                Result checkers
              </h2>
              <p className="mb-3">
                WASSCE, BECE and placement checker cards. Your serial and PIN appear here and come by SMS. <a href="/checkers/mine">My checkers</a>
              </p>
              <CheckerBuy products={checkers} card={pc.data.checkersByCard} closed={pc.settings.platformOpen === false} shop={{ slug: shop.slug }} />
            </section>
          ) : null}
        </div>
      </section>
    </>
  )
}
