import { usePageContext } from '../../renderer/usePageContext.tsx'
import '../_storefront/storefront.css'
import type { CheckersData } from './+data.ts'
import { CheckerBuy } from './_parts/CheckerBuy.tsx'

/** Result checkers: pick a card and how many, pay by mobile money (or card), and read the cards here once paid. */
export default function Page() {
  const { data, settings, user } = usePageContext() as ReturnType<typeof usePageContext> & { data: CheckersData }
  // An approved agent sees the agent price and may pay from the wallet: paid and handed over at once.
  const agent = user?.role === 'AGENT' && !!user.agent?.approved
  const closed = settings.platformOpen === false
  return (
    <section className="section">
      <div className="container" style={{ maxWidth: 640 }}>
        <h1 className="title">Result Checkers</h1>
        <p className="subtitle is-6">
          WASSCE, BECE and placement checker cards. Your serial and PIN appear here and come by SMS. <a href="/checkers/mine">My checkers</a>
        </p>
        {closed ? <p className="notification is-warning">Purchases are temporarily disabled.</p> : null}
        <CheckerBuy products={data.products} card={data.card} closed={closed} wallet={agent} />
      </div>
    </section>
  )
}
