// The fulfilment bench's figures per round, and the table it prints at the end: each round beside its bare baseline.

export interface RoundFigures {
  notify?: boolean
  appCpu?: number
  clientCpu?: number
  pgCpu?: number
  core?: number
  waits?: string
  walPerOrder?: string
  perSecond: number
  p50: number
  p95: number
  p99: number
  load: string
}

/** One row per round: the app's figures with the bare node:http + pg baseline of the same round in brackets. */
export function printRoundTable(figures: { app: RoundFigures; bare: RoundFigures }[]): void {
  console.log(
    '\n| Round | Notify triggers | Orders/s (bare node:http + pg) | Success -> vendor p50 / p95 / p99 ms (bare) | App / PostgreSQL CPU per order (the webhook client) | Share of a core | Load |'
  )
  console.log('|---|---|---:|---|---|---:|---|')
  for (const [i, { app: a, bare: b }] of figures.entries())
    console.log(
      `| ${i + 1} | ${a.notify ? 'on' : 'off'} | ${a.perSecond.toFixed(0)} (${b.perSecond.toFixed(0)}) | ${a.p50} / ${a.p95} / ${a.p99} (${b.p50} / ${b.p95} / ${b.p99}) | ${a.appCpu!.toFixed(1)} / ${a.pgCpu!.toFixed(1)} ms${a.clientCpu !== undefined ? ` (${a.clientCpu.toFixed(1)})` : ''} | ${(a.core! * 100).toFixed(0)}% | ${a.load} |`
    )
}
