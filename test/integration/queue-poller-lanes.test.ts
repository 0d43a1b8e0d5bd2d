import { expect } from 'chai'
import { app } from '../helpers/server.ts'

// A poller's lane (the delivery pump's): a run that took fewer than its batch found all that was
// waiting, so the lane stops there instead of running once more to find nothing; a full run, or a
// wake during a run, makes it look again. Counts runs, never times.

const POLLER = 'test.poller-lanes'

/** The answers the next runs give (then 0), and how many runs there were. */
const script = { answers: [] as number[], runs: 0, during: undefined as (() => void) | undefined }
let firstRun: (() => void) | undefined

/** Lets a lane that loops run again: its next run starts within a few turns of the event loop. */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r))
}

async function woken(answers: number[], during?: () => void): Promise<number> {
  script.answers = answers
  script.runs = 0
  script.during = during
  app().services.queue.wake(POLLER)
  await settle()
  await new Promise((r) => setTimeout(r, 20))
  await settle()
  return script.runs
}

describe('queue pollers: a run that took fewer than its batch ends its lane', function () {
  this.timeout(30_000)
  before(async () => {
    const queue = app().services.queue
    queue.poll(POLLER, {
      run: async () => {
        firstRun?.()
        script.runs++
        const during = script.during
        script.during = undefined
        during?.()
        return script.answers.shift() ?? 0
      },
      // No tick during the test: only wakes run it.
      everyMs: 3_600_000,
      lanes: 1,
      batch: 16
    })
    await queue.start({ pollInterval: 200 })
    // The lane runs once the pool's liveness connection has named it: wake until a run comes.
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => queue.wake(POLLER), 50)
      firstRun = () => {
        clearInterval(timer)
        resolve()
      }
    })
    firstRun = undefined
    await settle()
  })
  after(async () => {
    script.answers = []
    await app().services.queue.stop()
  })

  it('a run that took 3 of 16 is not followed by another run', async () => {
    expect(await woken([3])).to.equal(1)
  })

  it('a run that took 16 of 16 is followed by another, which ends the lane when it takes fewer', async () => {
    expect(await woken([16, 16, 5])).to.equal(3)
  })

  it('a wake during a run that took fewer than 16 makes the lane run again', async () => {
    expect(await woken([3, 2], () => app().services.queue.wake(POLLER))).to.equal(2)
  })
})
