import { expect } from 'chai'
import { afterPaint } from '../../bench/lighthouse-tasks.ts'

// Times in µs, as in a Chromium trace. The page's main thread is the one that painted.
const task = (ts: number, dur: number, tdur: number, tid = 1) => ({ name: 'RunTask', ph: 'X', ts, dur, tdur, pid: 7, tid })
const paint = { name: 'firstContentfulPaint', ph: 'R', ts: 100_000, pid: 7, tid: 1 }

describe('bench: the tasks after the paint Lighthouse observed, by wall time and by CPU time', () => {
  it("counts only the painting thread's tasks after the paint, each part over 50 ms (x 4) by wall and by CPU time", () => {
    const a = afterPaint([
      task(10_000, 40_000, 40_000), // before the paint: the first render, not counted
      paint,
      task(120_000, 30_000, 5_000), // 120 ms x 4 by wall, 20 by CPU: a stretched task
      task(200_000, 20_000, 15_000), // 80 and 60
      task(300_000, 10_000, 10_000), // 40: not long
      task(300_000, 90_000, 90_000, 2) // another thread
    ])!
    expect(a.long).to.equal(2)
    expect(a.wallBlocking).to.equal(70 + 30)
    expect(a.cpuBlocking).to.equal(0 + 10)
    expect(a.longest).to.deep.equal({ wall: 120, cpu: 20 })
    expect(a.longestCpu).to.equal(60)
    expect(a.cpuAfter).to.equal(20 + 60 + 40)
    expect(a.cpuOver20).to.equal(3)
  })

  it('says nothing when the trace has no paint', () => {
    expect(afterPaint([task(0, 90_000, 90_000)])).to.equal(null)
  })
})
