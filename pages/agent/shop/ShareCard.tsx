import { useToast } from '../../../renderer/ui/Toasts.tsx'
import type { ShopView } from '../../../server/services/shops/index.ts'
import { copyText } from '../_shared/format.ts'

/** The shop's link: copy it, share it on WhatsApp, show its QR code (drawn on the server as SVG). */
export function ShareCard({ shop, url, qrSvg }: { shop: ShopView; url: string; qrSvg: string | null }) {
  const toast = useToast()
  const text = `${shop.name}: buy MTN, Telecel and AirtelTigo data bundles at my shop ${url}`
  return (
    <div className="box" data-testid="share-card">
      <h2 className="title is-5">Your shop link</h2>
      {!shop.open ? (
        <p className="notification is-warning" role="status">
          Your shop is closed: an admin suspended it. Contact support to reopen it.
        </p>
      ) : null}
      <p className="shop-link mb-3">
        <a href={url} data-testid="shop-link">
          {url}
        </a>
      </p>
      <div className="buttons">
        <button
          type="button"
          className="button"
          onClick={() => void copyText(url).then((ok) => toast(ok ? 'Link copied to clipboard' : 'Unable to copy the link', ok ? 'success' : 'error'))}>
          Copy link
        </button>
        <a className="button is-success" href={`https://wa.me/?text=${encodeURIComponent(text)}`} target="_blank" rel="noopener noreferrer">
          Share on WhatsApp
        </a>
        <a className="button is-light" href={url} target="_blank" rel="noopener noreferrer">
          Open my shop
        </a>
      </div>
      {qrSvg ? (
        <figure className="mt-3">
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: server-made SVG of the link (no script, no outside input but the link itself) */}
          <div className="shop-qr" role="img" aria-label={`QR code of ${url}`} dangerouslySetInnerHTML={{ __html: qrSvg }} />
          <figcaption className="help">Customers can scan it to open your shop.</figcaption>
        </figure>
      ) : null}
    </div>
  )
}
