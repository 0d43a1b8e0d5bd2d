import { formatCedis, formatDay } from '../../../renderer/format.ts'
import { roundGhs } from '../../../server/lib/money.ts'

export interface DayFigures {
  day: string
  sales: number
  amount: number
  margin: number
}

/**
 * Margin earned per day as light inline SVG bars (no chart library on this page), with the same
 * figures as a table for screen readers and anyone who prefers numbers.
 */
export function SalesChart({ days }: { days: DayFigures[] }) {
  const W = 600
  const H = 160
  const max = Math.max(0.01, ...days.map((d) => Math.abs(d.margin)))
  const bar = W / Math.max(1, days.length)
  const totals = days.reduce((t, d) => ({ sales: t.sales + d.sales, amount: t.amount + d.amount, margin: t.margin + d.margin }), {
    sales: 0,
    amount: 0,
    margin: 0
  })
  return (
    <div className="box">
      <h2 className="title is-5" id="chart-title">
        Sales and earnings, last {days.length} days
      </h2>
      <p className="mb-3" data-testid="chart-summary">
        {totals.sales} {totals.sales === 1 ? 'sale' : 'sales'} worth {formatCedis(roundGhs(totals.amount))}; margin earned{' '}
        {formatCedis(roundGhs(totals.margin))}.
      </p>
      <svg viewBox={`0 0 ${W} ${H + 20}`} width="100%" role="img" aria-labelledby="chart-title" className="shop-chart">
        <line x1="0" y1={H} x2={W} y2={H} className="shop-chart-axis" />
        {days.map((d, i) => {
          const h = Math.round((Math.abs(d.margin) / max) * (H - 10))
          return (
            <rect
              key={d.day}
              x={i * bar + 1}
              y={d.margin >= 0 ? H - h : H}
              width={Math.max(1, bar - 2)}
              height={h}
              className={d.margin >= 0 ? 'shop-chart-bar' : 'shop-chart-bar is-negative'}>
              <title>{`${formatDay(d.day)}: ${d.sales} ${d.sales === 1 ? 'sale' : 'sales'}, margin ${formatCedis(d.margin)}`}</title>
            </rect>
          )
        })}
        <text x="0" y={H + 16} className="shop-chart-label">
          {formatDay(days[0]?.day)}
        </text>
        <text x={W} y={H + 16} textAnchor="end" className="shop-chart-label">
          {formatDay(days.at(-1)?.day)}
        </text>
      </svg>
      <details className="mt-3">
        <summary>Show the figures as a table</summary>
        <div className="table-container">
          <table className="table is-fullwidth is-narrow">
            <caption className="is-sr-only">Sales and margin per day</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Sales</th>
                <th scope="col">Amount</th>
                <th scope="col">Margin</th>
              </tr>
            </thead>
            <tbody>
              {days
                .filter((d) => d.sales || d.margin)
                .map((d) => (
                  <tr key={d.day}>
                    <td>{formatDay(d.day)}</td>
                    <td>{d.sales}</td>
                    <td>{formatCedis(d.amount)}</td>
                    <td>{formatCedis(d.margin)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  )
}
