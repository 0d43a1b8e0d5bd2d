// `node bench/main-thread.ts`: where a phone's main thread goes while a public page loads and hydrates.
// Loads each page in Chromium (/usr/bin/chromium, CHROME_PATH), records a performance trace until the page is
// hydrated (`data-hydrated` on <html>) and a second after, and weighs each main-thread task by the CPU time
// the thread spent in it (not the wall time, which a loaded machine stretches) times 4, Lighthouse's mobile
// slowdown (it also multiplies what it observed). Prints every task over 50 ms so weighed (what counts as
// blocking) with what it ran: which script was evaluated, which callback (React's scheduler runs hydration in
// message-port tasks), style and layout; and the blocking time they add up to (the part of each over 50 ms). Then, for
// every run, the blocking after the first contentful paint (the part Lighthouse counts) and the tasks that evaluate the
// page's modules, long or not (Vike's entry, then the shell with the page's entry); the elements styled and the layout
// objects laid out before the first paint and after it (counts the load does not change: a page painted in two goes
// lays most of itself out after the paint); and each run's tasks after the paint of MT_AFTER_MIN (20) ms x 4 or more,
// with their wall time x 4 (what Lighthouse's simulation would take).
// MT_URL=http://host:port runs against a server that is up; otherwise one starts on MT_PORT (4484) with its
// own embedded PostgreSQL (MT_PG_PORT, 54484). MT_PAGES=/data-services,/shop/<slug> picks the pages
// (default: the buy page and the demo shop's page); MT_RUNS (3) loads of each, the median run printed.
import { ensureShop } from './demo-shop.ts'
import { stopChild } from './lib.ts'
import { ADMIN, cost, mainThreadServer, SHOP_SLUG, SLOWDOWN, type TraceEvent, tracePhoneLoad } from './phone-trace.ts'

const PAGES = (process.env.MT_PAGES ?? `/data-services,/shop/${SHOP_SLUG}`).split(',')
const RUNS = Number(process.env.MT_RUNS ?? 3)
const AFTER_MIN = Number(process.env.MT_AFTER_MIN ?? 20)
const { base, child } = await mainThreadServer()
await ensureShop(base, SHOP_SLUG, ADMIN)

interface Task {
  start: number
  ms: number
  what: string
}

const short = (url = '') => url.replace(/^.*\/assets\//, '').replace(/^https?:\/\/[^/]+/, '') || 'inline'

/** What a task did, its biggest parts first: "evaluate shell-x.js 40 ms, hydrate (shell-x.js) 12 ms, layout 3 ms". */
function describe(task: TraceEvent, events: TraceEvent[]): string {
  const end = task.ts + (task.dur ?? 0)
  const parts = new Map<string, number>()
  // The direct work of the task: the outermost events inside it (nested ones are part of those).
  let until = -1
  for (const e of events) {
    if (e === task || e.ts < task.ts || e.ts >= end || e.ph !== 'X' || !e.dur) continue
    if (e.ts < until) continue
    let label: string | undefined
    const d = e.args?.data
    if (e.name === 'EvaluateScript' || e.name === 'v8.compileModule' || e.name === 'v8.evaluateModule') label = `evaluate ${short(d?.url)}`
    else if (e.name === 'v8.compile' || e.name === 'v8.parseOnBackground') label = `compile ${short(d?.url)}`
    else if (e.name === 'FunctionCall') label = `run ${short(d?.url)}${d?.functionName ? ` ${d.functionName}` : ''}`
    else if (e.name === 'ParseHTML') label = 'parse HTML'
    else if (e.name === 'UpdateLayoutTree' || e.name === 'RecalculateStyles') label = 'style'
    else if (e.name === 'Layout') label = 'layout'
    else if (e.name === 'Paint' || e.name === 'PrePaint' || e.name === 'Layerize') label = 'paint'
    else if (e.name === 'TimerFire' || e.name === 'FireAnimationFrame' || e.name === 'EventDispatch' || e.name === 'HandlePostMessage') label = undefined
    if (!label) continue
    parts.set(label, (parts.get(label) ?? 0) + cost(e))
    until = e.ts + e.dur
  }
  return (
    [...parts]
      .sort((a, b) => b[1] - a[1])
      .filter(([, ms]) => ms >= 1)
      .map(([l, ms]) => `${l} ${Math.round(ms)} ms`)
      .join(', ') || 'other'
  )
}

/** `count` summed over the events before `at` and from it on. */
function split(events: TraceEvent[], at: number | undefined, count: (e: TraceEvent) => number): [number, number] {
  const sums: [number, number] = [0, 0]
  for (const e of events) sums[at !== undefined && e.ts >= at ? 1 : 0] += count(e)
  return sums
}

async function trace(url: string) {
  const events = await tracePhoneLoad(url, {
    categories: ['devtools.timeline', 'v8.execute', 'disabled-by-default-devtools.timeline', 'toplevel', 'blink.user_timing'],
    settleMs: 1000
  })
  // The page's main thread: the renderer main thread that evaluated this site's scripts.
  const mains = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
  const score = (m: TraceEvent) => events.filter((e) => e.pid === m.pid && e.tid === m.tid && e.name === 'EvaluateScript').length
  const main = mains.sort((a, b) => score(b) - score(a))[0]!
  const mine = events.filter((e) => e.pid === main.pid && e.tid === main.tid).sort((a, b) => a.ts - b.ts)
  const nav = mine.find((e) => e.name === 'ParseHTML')?.ts ?? mine[0]!.ts
  const tasks: Task[] = mine
    .filter((e) => e.name === 'RunTask' && cost(e) > 50)
    .map((t) => ({ start: (t.ts - nav) / 1000, ms: cost(t), what: describe(t, mine) }))
  const busy = mine.filter((e) => e.name === 'RunTask').reduce((s, e) => s + cost(e), 0)
  // Lighthouse counts blocking from the first contentful paint on: the tasks before it (making the page's context,
  // the first style and layout) are the load's, not its scripts'.
  const fcp = mine.find((e) => e.name === 'firstContentfulPaint')?.ts
  const afterPaint = fcp === undefined ? [] : mine.filter((e) => e.name === 'RunTask' && e.ts >= fcp && cost(e) > 50)
  // Lighthouse's simulation stretches what it observed (wall time x 4), so a task of 13 ms after the paint is already
  // one of its long tasks: MT_AFTER_MIN (ms, x 4) lists those after the paint down to that size, with their wall time.
  const after = (fcp === undefined ? [] : mine.filter((e) => e.name === 'RunTask' && e.ts >= fcp && cost(e) >= AFTER_MIN)).map((t) => ({
    start: (t.ts - nav) / 1000,
    ms: cost(t),
    wall: ((t.dur ?? 0) * SLOWDOWN) / 1000,
    what: describe(t, mine)
  }))
  // The tasks that evaluate the page's modules (Vike's entry first, then the shell with the page's own entry), over 50 ms or not.
  const evaluations = mine.filter((e) => e.name === 'v8.evaluateModule')
  const evaluating = mine.filter((t) => t.name === 'RunTask' && evaluations.some((e) => e.ts >= t.ts && e.ts < t.ts + (t.dur ?? 0))).map(cost)
  return {
    tasks,
    blocking: tasks.reduce((s, t) => s + t.ms - 50, 0),
    busy,
    afterPaint: fcp === undefined ? Number.NaN : afterPaint.reduce((s, e) => s + cost(e) - 50, 0),
    fcp: fcp === undefined ? Number.NaN : (fcp - nav) / 1000,
    // What the browser styled and laid out before the first paint and after it: counts, which the machine's load does
    // not change. A page painted in two goes (the header, then the rest) does most of it after the paint.
    styled: split(mine, fcp, (e) => (e.name === 'UpdateLayoutTree' ? (e.args?.elementCount ?? 0) : 0)),
    laidOut: split(mine, fcp, (e) => (e.name === 'Layout' ? (e.args?.beginData?.dirtyObjects ?? 0) : 0)),
    after,
    evaluating
  }
}

try {
  for (const p of PAGES) {
    const runs = []
    for (let i = 0; i < RUNS; i++) runs.push(await trace(base + p))
    runs.sort((a, b) => a.blocking - b.blocking)
    const mid = runs[Math.floor(runs.length / 2)]!
    console.log(
      `\n${p}: blocking ${Math.round(mid.blocking)} ms (runs: ${runs.map((r) => Math.round(r.blocking)).join(', ')}), main thread busy ${Math.round(mid.busy)} ms (CPU time x ${SLOWDOWN})`
    )
    const list = (xs: number[]) => xs.map((x) => Math.round(x)).join(', ')
    console.log(`blocking after the first contentful paint (what Lighthouse counts), each run: ${list(runs.map((r) => r.afterPaint))}`)
    console.log(`tasks evaluating the page's modules, each run (CPU time x ${SLOWDOWN}): ${runs.map((r) => `[${list(r.evaluating)}]`).join(' ')}`)
    console.log(
      `elements styled / layout objects laid out, before the first paint + after it, each run: ${runs.map((r) => `${r.styled.join(' + ')} / ${r.laidOut.join(' + ')}`).join(', ')}`
    )
    console.log('| starts at | task | what it ran |')
    console.log('| --: | --: | --- |')
    for (const t of mid.tasks) console.log(`| ${Math.round(t.start)} ms | ${Math.round(t.ms)} ms | ${t.what} |`)
    console.log(`tasks after the first contentful paint of ${AFTER_MIN} ms or more (CPU time and wall time x ${SLOWDOWN}), each run:`)
    for (const r of runs)
      console.log(
        `  FCP at ${Math.round(r.fcp)} ms: ${r.after.map((t) => `${Math.round(t.start)} ms: ${Math.round(t.ms)} (wall ${Math.round(t.wall)}) ${t.what}`).join('; ') || 'none'}`
      )
  }
} finally {
  if (child) await stopChild(child)
}
