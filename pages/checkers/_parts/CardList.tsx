import type { PurchaseView } from '../../../server/services/vouchers/index.ts'
import { formatCedis } from '../../_storefront/format.ts'

/** A purchase's cards as the buyer reads them: serial and PIN large enough to copy from a phone. */
export function CardList({ purchase }: { purchase: PurchaseView }) {
  return (
    <div className="box" data-testid="checker-purchase">
      <p className="has-text-weight-semibold">
        {purchase.product?.name ?? 'Checker'} × {purchase.quantity} · {formatCedis(purchase.amount)} · Ref {purchase.transactionId}
      </p>
      {purchase.cards.length ? (
        <ul aria-label="Your cards">
          {purchase.cards.map((c) => (
            <li key={c.serial} className="my-2" data-testid="checker-card">
              <span className="is-block">
                Serial: <strong className="is-family-monospace">{c.serial}</strong>
              </span>
              <span className="is-block">
                PIN: <strong className="is-family-monospace">{c.pin}</strong>
              </span>
              {c.expiresOn ? <span className="is-block is-size-7">Valid until {c.expiresOn}</span> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p>
          {purchase.paymentStatus === 'SUCCESS' || purchase.paymentStatus.startsWith('REFUND')
            ? 'No cards could be supplied: your money is being refunded.'
            : 'Waiting for your payment.'}
        </p>
      )}
      {purchase.notSupplied > 0 && purchase.cards.length ? (
        <p className="notification is-warning is-light">{purchase.notSupplied} card(s) were out of stock: their price is being refunded.</p>
      ) : null}
      {purchase.product?.howToUse || purchase.product?.checkingUrl ? (
        <p className="is-size-7">
          {purchase.product.howToUse}{' '}
          {purchase.product.checkingUrl ? (
            <a href={purchase.product.checkingUrl} rel="noopener noreferrer" target="_blank">
              {purchase.product.checkingUrl}
            </a>
          ) : null}
        </p>
      ) : null}
    </div>
  )
}
