import { expect } from 'chai'
import { createSignedInService, type SessionRow } from '../../server/services/signed-in/index.ts'

// The signed-in session kept between loads (ADR 0048, amendment), without HTTP: when a kept row is used, what a
// notice drops, and a read overtaken by a drop. Two instances on one database: test/integration/signed-in-sessions-kept.
function setup() {
  const service = createSignedInService({ auth: { loadActor: async () => null } })
  let reads = 0
  let live = true
  const row = (ms = 60_000): SessionRow => ({ json: '{"userId":1}', expiresAt: Date.now() + ms })
  const read = (ms?: number) => async (): Promise<SessionRow> => {
    reads++
    return row(ms)
  }
  const follow = () => service.follow({ caughtUp: async () => live })
  return { service, read, follow, reads: () => reads, down: () => (live = false) }
}

describe('signed-in session kept between loads', () => {
  it('keeps nothing without a feed, nor while the feed is down', async () => {
    const s = setup()
    for (let i = 0; i < 2; i++) await s.service.session('a', null, s.read())
    expect(s.reads()).to.equal(2)
    s.follow()
    await s.service.session('a', null, s.read())
    await s.service.session('a', null, s.read())
    expect(s.reads()).to.equal(3)
    s.down()
    await s.service.session('a', null, s.read())
    expect(s.reads()).to.equal(4)
  })

  it('reads again after a notice names the session, or everything', async () => {
    const s = setup()
    s.follow()
    await s.service.session('a', null, s.read())
    await s.service.session('b', null, s.read())
    s.service.changed('session:a')
    await s.service.session('a', null, s.read())
    await s.service.session('b', null, s.read())
    expect(s.reads()).to.equal(3)
    s.service.changed('all')
    await s.service.session('b', null, s.read())
    expect(s.reads()).to.equal(4)
  })

  it('never answers a kept session past its expiry', async () => {
    const s = setup()
    s.follow()
    expect(await s.service.session('a', null, s.read(30))).to.not.equal(null)
    await new Promise((r) => setTimeout(r, 40))
    // The database would no longer find it: the kept copy must not answer for it.
    expect(await s.service.session('a', null, async () => null)).to.equal(null)
  })

  it('answers a read a drop overtook but keeps it not, and later callers read again', async () => {
    const s = setup()
    s.follow()
    let release = () => {}
    const slow = () =>
      new Promise<SessionRow>((resolve) => {
        release = () => resolve({ json: '{"userId":1,"old":true}', expiresAt: Date.now() + 60_000 })
      })
    const turn = () => new Promise((r) => setImmediate(r))
    const first = s.service.session('a', null, slow)
    await turn()
    s.service.changed('session:a')
    const second = s.service.session('a', null, s.read())
    // Both reads are out when the first ends.
    await turn()
    release()
    expect((await first)?.json).to.include('old')
    expect((await second)?.json).to.not.include('old')
    expect((await s.service.session('a', null, s.read()))?.json).to.not.include('old')
    expect(s.reads()).to.equal(1)
  })
})
