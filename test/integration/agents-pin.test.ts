import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { isGuessablePin, randomPin } from '../../server/services/agents/pin.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { createAgent, agentClient, pinLocked } from '../helpers/agents-api.ts'

describe('agents API: USSD PIN', () => {
  beforeEach(resetDb)

  it('returns a new random 4-digit PIN once, stores only its hash, and verifyPin accepts it', async () => {
    const a = await agentClient()
    const res = await a.c.post('/api/agents/me/pin/reset')
    expect(res.status).to.equal(200)
    expect(res.headers.get('cache-control')).to.equal('no-store')
    const pin = res.body.pin as string
    expect(pin).to.match(/^\d{4}$/)
    expect(isGuessablePin(pin)).to.equal(false)
    const [row] = await app().db.sequelize.query<{ pin_hash: string }>('SELECT pin_hash FROM agents WHERE id = :id', {
      replacements: { id: a.agent.id },
      type: QueryTypes.SELECT
    })
    expect(row!.pin_hash).to.match(/^\$argon2id\$/)
    expect(row!.pin_hash).to.not.include(pin)
    const audit = await app().db.sequelize.query('SELECT details::text AS d FROM audit_logs', { type: QueryTypes.SELECT })
    for (const r of audit as { d: string }[]) expect(r.d).to.not.include(pin)
    expect((await app().services.ussd.verifyPin(a.agent.id, pin)).ok).to.equal(true)
    const wrong = pin === '9999' ? '8888' : String((Number(pin) + 1) % 10000).padStart(4, '0')
    expect((await app().services.ussd.verifyPin(a.agent.id, wrong)).ok).to.equal(false)
    // A second reset replaces the first PIN.
    const again = await a.c.post('/api/agents/me/pin/reset')
    if (again.body.pin !== pin) expect((await app().services.ussd.verifyPin(a.agent.id, pin)).ok).to.equal(false)
    expect((await app().services.ussd.verifyPin(a.agent.id, again.body.pin)).ok).to.equal(true)
    expect((await a.c.get(`/api/agents/${a.agent.id}`)).body.hasPin).to.equal(true)
  })

  it('locks the PIN per agent after 5 failures, even for the right PIN', async () => {
    const a = await agentClient()
    const { pin } = (await a.c.post('/api/agents/me/pin/reset')).body
    const wrong = pin === '9999' ? '8888' : String((Number(pin) + 1) % 10000).padStart(4, '0')
    for (let i = 0; i < 5; i++) expect((await app().services.ussd.verifyPin(a.agent.id, wrong)).ok).to.equal(false)
    expect((await app().services.ussd.verifyPin(a.agent.id, pin)).ok).to.equal(false)
    expect(await pinLocked(a.agent.id)).to.equal(true)
    // A reset unlocks it.
    const fresh = (await a.c.post('/api/agents/me/pin/reset')).body.pin
    expect((await app().services.ussd.verifyPin(a.agent.id, fresh)).ok).to.equal(true)
  })

  it('never hands out guessable PINs', () => {
    for (const p of ['0000', '1111', '1234', '4321', '1212', '2580', '1122', '1221', '1990', '2024', '6789', '9876'])
      expect(isGuessablePin(p), p).to.equal(true)
    // Not four digits: never a PIN to hand out.
    for (const p of ['', '482', '48291', '48a9']) expect(isGuessablePin(p), p).to.equal(true)
    // Each is one step short of a guessable pattern: one run step, one doubled digit, one mirrored pair.
    for (const p of ['4829', '7153', '0391', '4568', '8653', '4471', '4711', '4714', '4772']) expect(isGuessablePin(p), p).to.equal(false)
    // About 1 PIN in 20 is guessable: 2,000 draws would meet dozens if randomPin handed them out.
    for (let i = 0; i < 2000; i++) {
      const pin = randomPin()
      expect(pin).to.match(/^\d{4}$/)
      expect(isGuessablePin(pin), pin).to.equal(false)
    }
  })

  it('resets only for agents; verifyPin is false without a PIN', async () => {
    expect((await (await adminClient()).post('/api/agents/me/pin/reset')).status).to.equal(403)
    expect((await new Client().post('/api/agents/me/pin/reset')).status).to.equal(401)
    const a = await createAgent()
    expect((await app().services.ussd.verifyPin(a.agent.id, '4829')).ok).to.equal(false)
    expect((await app().services.ussd.verifyPin(999999, '4829')).ok).to.equal(false)
  })
})

describe('agents API: PIN guesses in parallel', () => {
  beforeEach(resetDb)

  it('counts every parallel guess, so 20 at once still lock after 5', async () => {
    const a = await agentClient()
    const { pin } = (await a.c.post('/api/agents/me/pin/reset')).body
    const wrong = pin === '9999' ? '8888' : String((Number(pin) + 1) % 10000).padStart(4, '0')
    const results = await Promise.all(Array.from({ length: 20 }, async () => (await app().services.ussd.verifyPin(a.agent.id, wrong)).ok))
    expect(results.every((r) => r === false)).to.equal(true)
    expect(await pinLocked(a.agent.id)).to.equal(true)
    expect((await app().services.ussd.verifyPin(a.agent.id, pin)).ok).to.equal(false)
  })
})
