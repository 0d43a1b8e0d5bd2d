import { useEffect, useState, type ComponentType } from 'react'
import type { Analytics, Stats } from './+data.ts'
import { statusOf } from '../_ops/format.ts'
import { ghsFixed } from '../../../server/lib/money.ts'

type ChartProps = { type: string; height: number; series: unknown; options: Record<string, unknown> }

// ApexCharts touches `window` and weighs 160-280 KB gzip: it is imported only here, after hydration,
// so neither the server render nor any other page's bundle carries it.
function useApexChart() {
  const [Chart, setChart] = useState<ComponentType<ChartProps> | null>(null)
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    let live = true
    import('react-apexcharts').then(
      (m) => live && setChart(() => m.default as unknown as ComponentType<ChartProps>),
      () => live && setFailed(true)
    )
    return () => {
      live = false
    }
  }, [])
  return { Chart, failed }
}

const HEIGHT = 300
const dark = () => typeof document !== 'undefined' && document.documentElement.dataset.theme === 'dark'
// One formatter for the module: toLocaleDateString with options builds a new Intl.DateTimeFormat on
// every call, which was the largest single cost of rendering this page on the server.
const shortDateFmt = new Intl.DateTimeFormat('en-GH', { timeZone: 'UTC', day: 'numeric', month: 'short' })
const shortDate = (d: string) => shortDateFmt.format(new Date(`${d}T00:00:00Z`))

function Panel({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="column is-12-tablet is-6-desktop">
      <div className="box">
        <h2 className="title is-6">{title}</h2>
        <div className="ops-chart">{children}</div>
      </div>
    </div>
  )
}

export function Charts({ analytics, stats }: { analytics: Analytics; stats: Stats }) {
  const { Chart, failed } = useApexChart()
  const base = { theme: { mode: dark() ? 'dark' : 'light' }, chart: { background: 'transparent', toolbar: { show: false }, fontFamily: 'inherit' } }
  const placeholder = (
    <div className="ops-chart-placeholder" role="status">
      {failed ? 'Charts could not be loaded.' : 'Loading chart...'}
    </div>
  )
  const days = analytics.ordersByDay.map((d) => shortDate(d.date))
  const statusKeys = Object.keys(analytics.paymentStatusBreakdown)
  const agentKeys = Object.entries(stats.agentPaymentBreakdown).filter(([, n]) => n > 0)

  return (
    <div className="columns is-multiline" data-charts={Chart ? 'ready' : 'pending'}>
      <Panel title="Orders by day">
        {Chart ? (
          <Chart
            type="line"
            height={HEIGHT}
            series={[{ name: 'Orders', data: analytics.ordersByDay.map((d) => d.count) }]}
            options={{ ...base, xaxis: { categories: days }, stroke: { curve: 'smooth', width: 3 }, dataLabels: { enabled: false } }}
          />
        ) : (
          placeholder
        )}
      </Panel>
      <Panel title="Revenue by day">
        {Chart ? (
          <Chart
            type="bar"
            height={HEIGHT}
            series={[{ name: 'Revenue (GHS)', data: analytics.revenueByDay.map((d) => d.amount ?? 0) }]}
            options={{
              ...base,
              xaxis: { categories: days },
              yaxis: { title: { text: 'Revenue (GHS)' }, labels: { formatter: (v: number) => v.toFixed(0) } },
              dataLabels: { enabled: false },
              tooltip: { y: { formatter: (v: number) => `Revenue: GHS ${ghsFixed(v)}`, title: { formatter: () => '' } } }
            }}
          />
        ) : (
          placeholder
        )}
      </Panel>
      <Panel title="Data payment status">
        {Chart ? (
          <Chart
            type="donut"
            height={HEIGHT}
            series={statusKeys.map((k) => analytics.paymentStatusBreakdown[k] ?? 0)}
            options={{
              ...base,
              labels: statusKeys.map((k) => statusOf(k).label),
              colors: ['#ffb70f', '#3e8ed0', '#48c78e', '#f14668', '#7a7a7a'],
              legend: { position: 'bottom' }
            }}
          />
        ) : (
          placeholder
        )}
      </Panel>
      <Panel title="Agent registration status">
        {Chart ? (
          <Chart
            type="donut"
            height={HEIGHT}
            series={agentKeys.map(([, n]) => n)}
            options={{
              ...base,
              labels: agentKeys.map(([k]) => (k === 'NONE' ? 'Not Started' : statusOf(k).label)),
              legend: { position: 'bottom' },
              noData: { text: 'No agents yet' }
            }}
          />
        ) : (
          placeholder
        )}
      </Panel>
    </div>
  )
}
