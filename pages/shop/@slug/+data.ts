import { redirect, render } from 'vike/abort'
import type { PageContextServer } from 'vike/types'
import type { PageMeta } from '../../../renderer/+onRenderHtml.tsx'
import type { ShopView } from '../../../server/services/shops/index.ts'
import type { BuyData } from '../../data-services/+data.ts'
import type { PublicProductView } from '../../../server/services/vouchers/index.ts'
import { shopChatLink, whatsappLink } from '../../../renderer/ui/links.ts'
import { openingNetwork } from '../../data-services/networks.ts'
import { publicOrigin } from '../../../server/lib/origin.ts'

export interface ShopData extends BuyData {
  shop: ShopView
  whatsappUrl: string | null
  /** Order in the WhatsApp chat with the bot, when the shop takes orders there. */
  chatUrl: string | null
  meta: PageMeta
  /** Result checkers the shop sells, at its price (empty when closed). */
  checkers: PublicProductView[]
  /** Checkers are paid by card checkout (the gateway is card), else by a mobile money prompt. */
  checkersByCard: boolean
}

// /shop/<slug>: the agent's shop. An old slug answers 301 to the current one; an unknown one 404.
export async function data(pageContext: PageContextServer): Promise<ShopData> {
  const services = pageContext.services
  if (!services) throw render(404)
  const slug = pageContext.routeParams.slug
  const view = await services.shops.publicView(slug)
  if (!view) throw render(404, 'Shop not found')
  if ('redirect' in view) throw redirect(`/shop/${view.redirect}${pageContext.urlParsed.searchOriginal ?? ''}`, 301)
  const headers = (pageContext.headersOriginal ?? {}) as Record<string, string | undefined>
  const base = publicOrigin(services.deps.env.PUBLIC_URL, { host: headers.host })
  const url = `${base}/shop/${view.shop.slug}`
  const prices = services.shops.priceTexts(view.packages)
  const [checkers, settings] = await Promise.all([view.shop.open ? services.shopCheckers.publicList(view.shop.id) : [], services.settings.get()])
  const chatUrl = view.shop.open && view.shop.whatsappOrders ? shopChatLink(settings.whatsappNumber, settings.whatsappShopPrefill, view.shop.slug) : null
  const packages = view.packages.map((p) => ({ id: p.id, network: p.network, name: p.name, sizeMB: p.sizeMB, priceUser: p.price, priceAgent: null }))
  return {
    shop: view.shop,
    whatsappUrl: whatsappLink(view.shop.whatsapp),
    checkers,
    checkersByCard: settings.paymentGateway === 'paystack',
    chatUrl,
    packages,
    providerLabel: services.payments.providerName === 'paystack' ? 'Paystack' : services.payments.providerLabel,
    tab: pageContext.urlParsed.search.tab === 'orders' ? 'orders' : 'buy',
    network: openingNetwork(packages, pageContext.urlParsed.search.network),
    meta: {
      title: view.shop.name,
      description: view.shop.open
        ? `${prices.length ? `${prices.join(', ')}. ` : ''}${view.shop.description || 'Data bundles for MTN, Telecel and AirtelTigo'}. Pay with mobile money or card.`.slice(
            0,
            300
          )
        : 'This shop is closed at the moment.',
      image: `${url}/og.png`,
      url
    }
  }
}
