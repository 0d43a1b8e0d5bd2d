import { CHANNEL_LABEL, countText, formatCedis } from '../_ops/format.ts'
import type { Analytics } from './+data.ts'

type FigureRow = { key: string | number; label: string; count: number; revenue: number }

/** A boxed table of count and revenue (GHS) per row, with its heading and the range it covers. */
function Figures({
  id,
  title,
  labelHeading,
  countHeading,
  rows,
  note,
  empty
}: {
  id: string
  title: string
  labelHeading: string
  countHeading: string
  rows: FigureRow[]
  note: string
  empty: string
}) {
  return (
    <div className="column">
      <div className="box" style={{ height: '100%' }}>
        <h2 className="title is-6" id={id}>
          {title}
        </h2>
        {rows.length ? (
          <div className="table-container">
            <table className="table is-fullwidth is-narrow" aria-labelledby={id} data-testid={id}>
              <thead>
                <tr>
                  <th scope="col">{labelHeading}</th>
                  <th scope="col" className="has-text-right">
                    {countHeading}
                  </th>
                  <th scope="col" className="has-text-right">
                    Revenue
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.key} data-key={r.key}>
                    <th scope="row" className="has-text-weight-normal">
                      {r.label}
                    </th>
                    <td className="has-text-right">{countText(r.count)}</td>
                    <td className="has-text-right has-text-weight-semibold">{formatCedis(r.revenue)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="has-text-grey">{empty}</p>
        )}
        <p className="is-size-7 has-text-grey">{note}</p>
      </div>
    </div>
  )
}

/** Orders and paid revenue per channel, and checker cards sold per product, for the picked range. */
export function SalesTables({ analytics, rangeLabel }: { analytics: Analytics; rangeLabel: string }) {
  const channels = Object.entries(analytics.channelBreakdown).map(([c, f]) => ({ key: c, label: CHANNEL_LABEL[c] ?? c, count: f.count, revenue: f.revenue }))
  const checkers = analytics.checkerSales.map((s) => ({ key: s.productId, label: s.product, count: s.cards, revenue: s.revenue }))
  return (
    <div className="columns">
      <Figures
        id="channel-sales"
        title="Orders by channel"
        labelHeading="Channel"
        countHeading="Orders"
        rows={channels}
        note={`${rangeLabel}; revenue counts paid orders only`}
        empty="No orders in this range."
      />
      <Figures
        id="checker-sales"
        title="Checker sales"
        labelHeading="Product"
        countHeading="Cards sold"
        rows={checkers}
        note={rangeLabel}
        empty="No checker cards sold in this range."
      />
    </div>
  )
}
