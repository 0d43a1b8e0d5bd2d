// A slower host on demand: N child processes that keep a CPU busy for a fixed share of every 10 ms while a bench's
// timed rounds run, so that both sides of an A/B pair (and the bare node:http baseline in the same rounds) meet the
// same contention instead of whatever else the machine happens to run.
//   BENCH_BUSY=<n> (0: none), BENCH_BUSY_DUTY=<percent of each 10 ms spent spinning> (100)
import { type ChildProcess, spawn } from 'node:child_process'

const PERIOD_MS = 10
// Spins for `busy` ms of each period, then sleeps the rest: a fixed duty cycle, not a queue that catches up.
const SPINNER = `const busy = Number(process.argv[1]), period = ${PERIOD_MS}
function tick() {
  const end = performance.now() + busy
  while (performance.now() < end) {}
  if (busy < period) setTimeout(tick, period - busy)
  else setImmediate(tick)
}
tick()`

export interface BusyLoad {
  /** What the load is, for the bench's header line. */
  label: string
  stop(): Promise<void>
}

export function busyLoad(count = Number(process.env.BENCH_BUSY ?? 0), duty = Number(process.env.BENCH_BUSY_DUTY ?? 100)): BusyLoad {
  const share = Math.min(100, Math.max(1, duty))
  const children: ChildProcess[] = []
  for (let i = 0; i < count; i++) children.push(spawn(process.execPath, ['-e', SPINNER, String((PERIOD_MS * share) / 100)], { stdio: 'ignore' }))
  return {
    label: count > 0 ? `${count} busy process${count > 1 ? 'es' : ''} at ${share}% of each ${PERIOD_MS} ms` : 'no busy processes',
    stop: () =>
      Promise.all(
        children.map(
          (c) =>
            new Promise<void>((resolve) => {
              if (c.exitCode !== null || c.signalCode !== null) return resolve()
              c.once('exit', () => resolve())
              c.kill('SIGTERM')
            })
        )
      ).then(() => undefined)
  }
}
