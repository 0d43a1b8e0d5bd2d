import { formatCedis, formatSize, NETWORK_LABEL } from '../_storefront/format.ts'
import type { StorePackage } from './+data.ts'

/** What the buyer is about to pay for, beside the form. */
export function OrderSummary(props: { network: string; pkg: StorePackage | undefined; recipient: string; card: boolean; price: number | null }) {
  const { network, pkg, recipient, card, price } = props
  return (
    <aside className="box" aria-label="Order summary">
      <h2 className="title is-5">Summary</h2>
      <dl className="sf-summary">
        <dt>Network</dt>
        <dd>{NETWORK_LABEL[network]}</dd>
        <dt>Package</dt>
        <dd>{pkg ? `${formatSize(pkg.sizeMB)} · ${pkg.name}` : '-'}</dd>
        <dt>Recipient</dt>
        <dd>{recipient || '-'}</dd>
        <dt>Payment</dt>
        <dd>{card ? 'Card / checkout' : 'Mobile money'}</dd>
        <dt>Total</dt>
        <dd className="is-size-5">{formatCedis(price)}</dd>
      </dl>
    </aside>
  )
}
