import type { PageContextServer } from 'vike/types'
import type { ShopsService } from '../../../server/services/shops/index.ts'
import type { CheckerPriceLine } from '../../../server/services/shop-checkers/index.ts'
import { loadAgentBase, type AgentBase } from '../_shared/agent-data.ts'
import { isActiveAgent } from '../../../renderer/format.ts'
import { publicOrigin } from '../../../server/lib/origin.ts'

export interface MyShopData extends AgentBase {
  mine: Awaited<ReturnType<ShopsService['mine']>> | null
  /** The shop's result-checker price lines (every product on sale). */
  checkers: CheckerPriceLine[]
  series: Awaited<ReturnType<ShopsService['series']>>
  earnings: number | null
  /** Where shop links start: PUBLIC_URL, else this request's host. */
  origin: string
  /** The shop link's QR code as SVG markup (server-made), when the shop exists. */
  qrSvg?: string | null
  /** The bot's WhatsApp number and the text a shop's chat link types (settings). */
  chat?: { number: string; prefill: string }
}

// /agent/shop: the agent's own shop.
export async function data(pageContext: PageContextServer): Promise<MyShopData> {
  const base = await loadAgentBase(pageContext)
  const { services, user } = pageContext
  const headers = (pageContext.headersOriginal ?? {}) as Record<string, string | undefined>
  const origin = publicOrigin(services?.deps.env.PUBLIC_URL, { host: headers.host })
  if (!services || !user || !isActiveAgent(base.agent)) return { ...base, mine: null, checkers: [], series: [], earnings: null, origin }
  const ctx = { user }
  const [mine, checkers, series, earnings, s] = await Promise.all([
    services.shops.mine(ctx),
    services.shopCheckers.mine(ctx),
    services.shops.series(ctx, 30),
    services.earnings.mine(ctx, 1),
    services.settings.get()
  ])
  const qrSvg = mine.shop ? services.shops.qrSvg(`${origin}/shop/${mine.shop.slug}`) : null
  return {
    ...base,
    mine,
    checkers,
    series,
    earnings: earnings.available,
    origin,
    qrSvg,
    chat: { number: s.whatsappNumber, prefill: s.whatsappShopPrefill }
  }
}
