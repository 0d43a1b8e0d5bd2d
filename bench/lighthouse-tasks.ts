// The page's main-thread tasks after its observed first contentful paint, in a Lighthouse run's own trace: what its
// total blocking time is made of. Lighthouse's simulation takes each task's wall time as observed times 4 (its mobile
// CPU slowdown) and counts the part of each over 50 ms after the paint; a busy machine stretches the wall time of a
// task that used the CPU briefly. So each task is weighed both ways: wall time x 4, and CPU time x 4 (what the page
// itself asked of the CPU).

import type { TraceEvent } from './phone-trace.ts'

const SLOWDOWN = 4
const LONG = 50

export interface AfterPaint {
  /** tasks after the paint whose wall time x 4 is over 50 ms */
  long: number
  /** their parts over 50 ms, wall time x 4: about what the simulation counts (it reorders tasks, and clips them at its own paint) */
  wallBlocking: number
  /** the same tasks' parts over 50 ms by CPU time x 4 */
  cpuBlocking: number
  /** the longest task after the paint: wall and CPU time x 4 */
  longest: { wall: number; cpu: number }
  /** the longest task after the paint by CPU time x 4: what the page asked of the CPU at once, whatever the load */
  longestCpu: number
  /** every task after the paint, its CPU time x 4 summed: the main thread's work after the paint, which the load hardly changes */
  cpuAfter: number
  /** tasks after the paint of 20 ms or more by CPU time x 4: the ones a loaded machine can stretch past 50 */
  cpuOver20: number
}

export function afterPaint(events: TraceEvent[]): AfterPaint | null {
  const fcp = events.find((e) => e.name === 'firstContentfulPaint')
  if (!fcp) return null
  const tasks = events.filter((e) => e.pid === fcp.pid && e.tid === fcp.tid && e.name === 'RunTask' && e.ph === 'X' && e.ts >= fcp.ts)
  const wall = (e: TraceEvent) => ((e.dur ?? 0) * SLOWDOWN) / 1000
  const cpu = (e: TraceEvent) => ((e.tdur ?? e.dur ?? 0) * SLOWDOWN) / 1000
  const long = tasks.filter((e) => wall(e) > LONG)
  const longest = tasks.reduce((m, e) => (wall(e) > m.wall ? { wall: wall(e), cpu: cpu(e) } : m), { wall: 0, cpu: 0 })
  return {
    long: long.length,
    wallBlocking: long.reduce((s, e) => s + wall(e) - LONG, 0),
    cpuBlocking: long.reduce((s, e) => s + Math.max(0, cpu(e) - LONG), 0),
    longest,
    longestCpu: tasks.reduce((m, e) => Math.max(m, cpu(e)), 0),
    cpuAfter: tasks.reduce((s, e) => s + cpu(e), 0),
    cpuOver20: tasks.filter((e) => cpu(e) >= 20).length
  }
}
