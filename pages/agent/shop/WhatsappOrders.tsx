import { useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { shopChatLink } from '../../../renderer/ui/links.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import type { ShopView } from '../../../server/services/shops/index.ts'
import { copyText } from '../_shared/format.ts'

/** "Order on WhatsApp": the shop's customers chat with the shop's bot at the shop's prices; its link names the shop. */
export function WhatsappOrders(props: { shop: ShopView; chat: { number: string; prefill: string } | null; onSaved(shop: ShopView): void }) {
  const { shop, chat } = props
  const toast = useToast()
  const [busy, setBusy] = useState(false)
  const link = shop.whatsappOrders && chat ? shopChatLink(chat.number, chat.prefill, shop.slug) : null

  async function toggle(on: boolean) {
    setBusy(true)
    try {
      const res = await api<{ shop: ShopView }>('/api/shops/mine/whatsapp', { method: 'PUT', body: { on } })
      props.onSaved(res.shop)
      toast(on ? 'Customers can now order on WhatsApp' : 'WhatsApp orders are off', 'success')
    } catch (err) {
      toast(err instanceof ApiError ? err.message : 'Unable to save. Please try again.', 'error')
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="box" data-testid="whatsapp-orders">
      <h2 className="title is-5">Order on WhatsApp</h2>
      <p className="mb-3">Your customers buy in a WhatsApp chat with our bot, at your prices; you earn the same margin as on your shop page.</p>
      <label className="checkbox" htmlFor="shop-wa-orders">
        <input
          id="shop-wa-orders"
          type="checkbox"
          className="mr-2"
          checked={shop.whatsappOrders}
          disabled={busy || (!shop.open && !shop.whatsappOrders)}
          onChange={(e) => void toggle(e.target.checked)}
        />
        Let customers order on WhatsApp
      </label>
      {shop.whatsappOrders && !link ? <p className="help">The site has no WhatsApp number yet: ask the admin to set it in Settings.</p> : null}
      {link ? (
        <div className="mt-3">
          <p className="shop-link mb-2">
            <a href={link} target="_blank" rel="noopener noreferrer" data-testid="shop-chat-link">
              {link}
            </a>
          </p>
          <button
            type="button"
            className="button is-small"
            onClick={() => void copyText(link).then((ok) => toast(ok ? 'Link copied to clipboard' : 'Unable to copy the link', ok ? 'success' : 'error'))}>
            Copy WhatsApp link
          </button>
        </div>
      ) : null}
    </div>
  )
}
