import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import type { Running } from '../../server/index.ts'
import { createAgent } from '../helpers/factories.ts'
import { bootWithFakePaystack, type FakePaystack } from '../helpers/fake-paystack.ts'
import { ADMIN } from '../helpers/server.ts'
import { Client } from '../helpers/http.ts'
import { postPaystackWebhook } from '../helpers/instance.ts'
import { app, resetDb } from '../helpers/server.ts'

// Payouts: a second app instance with a Paystack key on the same database, against the local
// fake Paystack speaking the Transfers API (banks, resolve, recipients, transfers, verify, webhooks).
describe('payouts with Paystack Transfers (fake Paystack server)', function () {
  this.timeout(60_000)
  let fake: FakePaystack
  let ps: Running
  const sql = async <T extends object = any>(text: string, r: Record<string, unknown> = {}) =>
    app().db.sequelize.query<T>(text, { replacements: r, type: QueryTypes.SELECT }) as Promise<T[]>
  const earn = async (agentId: number, pesewas: number) =>
    app().db.sequelize.transaction((t) => app().services.earnings.post({ agentId, type: 'ADJUSTMENT', amountPesewas: pesewas, reason: 'test earnings' }, t))
  const balance = (agentId: number) => app().services.earnings.balancePesewas(agentId)
  const setSettings = async (s: Record<string, unknown>) => {
    await ps.services.settings.update(s, {})
    app().services.settings.invalidate()
  }
  const postWebhook = (w: { body: string; signature: string }) => postPaystackWebhook(ps, w.body, w.signature)
  const payout = async (id: number) => (await sql('SELECT * FROM payouts WHERE id = :id', { id }))[0]
  const entries = async (payoutId: number) =>
    (await sql<{ type: string }>('SELECT type FROM earnings_entries WHERE payout_id = :payoutId ORDER BY id', { payoutId })).map((e) => e.type)

  /** An approved agent signed in on the Paystack instance, with earnings and a verified MTN payout number. */
  async function agentWithNumber(earningsPesewas: number) {
    const a = await createAgent()
    if (earningsPesewas) await earn(a.agent.id, earningsPesewas)
    const c = new Client(ps.url)
    expect((await c.login(a.user.email, a.password)).status).to.equal(200)
    const n = await c.post('/api/payouts/number', { network: 'MTN', phone: '0241234567', accountName: 'Kofi Mensah' })
    expect(n.status, n.text).to.equal(201)
    return { ...a, c }
  }

  let stop: () => Promise<void>
  before(async () => {
    ;({ fake, ps, stop } = await bootWithFakePaystack({ PAYSTACK_TIMEOUT_MS: 800 }))
  })
  after(async () => stop?.())
  beforeEach(async () => {
    await resetDb()
    ps.services.settings.invalidate()
    fake.requests.length = 0
    fake.transfers.clear()
    await setSettings({ payoutMinimum: 1, payoutFee: 0.5, payoutApprovalAbove: 1000 })
  })

  it('verifies the number with Paystack (mobile-money banks, resolve, transfer recipient) before use; a number the network does not know is refused', async () => {
    const a = await agentWithNumber(0)
    const bank = fake.requests.find((r) => r.path === '/bank')!
    expect(bank.query.get('currency')).to.equal('GHS')
    expect(bank.query.get('type')).to.equal('mobile_money')
    expect(fake.requests.find((r) => r.path === '/bank/resolve')!.query.get('bank_code')).to.equal('MTN')
    const rec = fake.requests.find((r) => r.path === '/transferrecipient')!
    expect(rec.body).to.deep.include({ type: 'mobile_money', currency: 'GHS', account_number: '0241234567', bank_code: 'MTN', name: 'KOFI MENSAH' })
    const mine = await a.c.get('/api/payouts')
    expect(mine.body.number).to.include({ network: 'MTN', phone: '0241234567', accountName: 'KOFI MENSAH' })

    fake.unknownNumbers.add('0551234567')
    const bad = await a.c.post('/api/payouts/number', { network: 'MTN', phone: '0551234567', accountName: 'Kofi Mensah' })
    expect(bad.status).to.equal(400)
    expect(bad.body.error).to.match(/could not be verified/)
    // The verified number stays in use.
    expect((await a.c.get('/api/payouts')).body.number.phone).to.equal('0241234567')
  })

  it('20 concurrent withdrawals against earnings enough for one: one hold, exactly one transfer at Paystack, 19 clear refusals', async () => {
    const a = await agentWithNumber(1000)
    const results = await Promise.all(Array.from({ length: 20 }, () => a.c.post('/api/payouts', { amount: 8 })))
    const ok = results.filter((r) => r.status === 201)
    expect(ok, JSON.stringify(results.map((r) => [r.status, r.body]))).to.have.length(1)
    for (const r of results.filter((x) => x.status !== 201)) {
      expect(r.status).to.equal(402)
      expect(r.body.error).to.match(/^Not enough available earnings: you have GH₵1\.50 available and this payout needs GH₵8\.50 including the fee\.$/)
    }
    expect(ok[0]!.body).to.include({ status: 'QUEUED', amount: 8, fee: 0.5, total: 8.5 })
    expect(await balance(a.agent.id)).to.equal(150)
    await ps.services.queue.drain()
    await ps.services.queue.drain()
    expect(fake.transfers.size).to.equal(1)
    const [t] = [...fake.transfers.values()]
    expect(t).to.include({ amount: 800, currency: 'GHS', reference: ok[0]!.body.reference })
    expect(fake.requests.find((r) => r.path === '/transfer')!.body).to.include({ source: 'balance', amount: 800, currency: 'GHS' })
    expect((await payout(ok[0]!.body.id)).status).to.equal('SENT')
  })

  for (const [event, status, back] of [
    ['transfer.success', 'SUCCESS', 0],
    ['transfer.failed', 'FAILED', 850],
    ['transfer.reversed', 'REVERSED', 850]
  ] as const) {
    it(`${event} delivered 3 times at once: ${status}, the balance changes once`, async () => {
      const a = await agentWithNumber(2000)
      const r = await a.c.post('/api/payouts', { amount: 8 })
      expect(r.status, r.text).to.equal(201)
      await ps.services.queue.drain()
      expect(await balance(a.agent.id)).to.equal(1150)
      const w = fake.transferEvent(r.body.reference, event)
      // Unsigned or badly signed: refused, nothing changes.
      expect((await postWebhook({ body: w.body, signature: fake.sign(`${w.body} `) })).status).to.equal(401)
      expect((await payout(r.body.id)).status).to.equal('SENT')
      const answers = await Promise.all([postWebhook(w), postWebhook(w), postWebhook(w)])
      expect(answers.map((x) => x.status)).to.deep.equal([200, 200, 200])
      expect((await payout(r.body.id)).status).to.equal(status)
      expect(await balance(a.agent.id)).to.equal(1150 + back)
      expect(await entries(r.body.id)).to.deep.equal(back ? ['PAYOUT', 'PAYOUT_RETURN'] : ['PAYOUT'])
      const audits = await sql<{ n: string }>(`SELECT count(*) AS n FROM audit_logs WHERE resource = 'PAYOUT' AND resource_id = :id AND action = :action`, {
        id: String(r.body.id),
        action: `PAYOUT_${{ SUCCESS: 'SUCCEEDED', FAILED: 'FAILED', REVERSED: 'REVERSED' }[status]}`
      })
      expect(Number(audits[0]!.n)).to.equal(1)
      // A later verify or webhook changes nothing more.
      await postWebhook(w)
      expect(await balance(a.agent.id)).to.equal(1150 + back)
      // The agent sees it in the history.
      const mine = await a.c.get('/api/payouts')
      expect(mine.body.payouts[0]).to.include({ id: r.body.id, status })
    })
  }

  it('a reversal after success returns the money once', async () => {
    const a = await agentWithNumber(1000)
    const r = await a.c.post('/api/payouts', { amount: 5 })
    await ps.services.queue.drain()
    await postWebhook(fake.transferEvent(r.body.reference, 'transfer.success'))
    expect(await balance(a.agent.id)).to.equal(450)
    await Promise.all([1, 2, 3].map(() => postWebhook(fake.transferEvent(r.body.reference, 'transfer.reversed'))))
    expect((await payout(r.body.id)).status).to.equal('REVERSED')
    expect(await balance(a.agent.id)).to.equal(1000)
  })

  it('a webhook with another amount is not trusted: nothing changes and the admin is told', async () => {
    const a = await agentWithNumber(1000)
    const r = await a.c.post('/api/payouts', { amount: 5 })
    await ps.services.queue.drain()
    await postWebhook(fake.transferEvent(r.body.reference, 'transfer.failed', { amount: 50_000 }))
    expect((await payout(r.body.id)).status).to.equal('SENT')
    expect(await balance(a.agent.id)).to.equal(450)
    const issues = await sql(`SELECT kind FROM payment_issues WHERE kind = 'payout_mismatch'`)
    expect(issues).to.have.length(1)
  })

  it('unknown outcome (Paystack answers 502 after making the transfer): stays pending, is asked again and settles by the answer; never sent twice', async () => {
    const a = await agentWithNumber(1000)
    fake.transferTrouble({ kind: '502', create: true })
    const r = await a.c.post('/api/payouts', { amount: 5 })
    await ps.services.queue.drain()
    expect((await payout(r.body.id)).status).to.equal('UNKNOWN')
    expect(await balance(a.agent.id)).to.equal(450)
    // Still processing at Paystack: the check keeps it open.
    await ps.services.payouts.check(r.body.id)
    expect((await payout(r.body.id)).status).to.equal('SENT')
    fake.completeTransfer(r.body.reference, 'failed')
    await ps.services.payouts.check(r.body.id)
    expect((await payout(r.body.id)).status).to.equal('FAILED')
    expect(await balance(a.agent.id)).to.equal(1000)
    expect(fake.requests.filter((x) => x.path === '/transfer')).to.have.length(1)
  })

  it('unknown outcome (timeout before Paystack made it): verified, not found, sent again under the same reference, once', async () => {
    const a = await agentWithNumber(1000)
    fake.transferTrouble({ kind: 'silence', ms: 3000, create: false })
    const r = await a.c.post('/api/payouts', { amount: 5 })
    await ps.services.queue.drain()
    expect((await payout(r.body.id)).status).to.equal('UNKNOWN')
    // The gateway does not answer the check either: nothing is guessed.
    fake.verifyTrouble({ kind: '502' })
    await ps.services.payouts.check(r.body.id)
    expect((await payout(r.body.id)).status).to.equal('UNKNOWN')
    await ps.services.payouts.check(r.body.id)
    await ps.services.queue.drain()
    expect(fake.transfers.size).to.equal(1)
    const sends = fake.requests.filter((x) => x.path === '/transfer')
    expect(sends).to.have.length(2)
    expect(sends[1]!.body.reference).to.equal(sends[0]!.body.reference)
    fake.completeTransfer(r.body.reference, 'success')
    await ps.services.payouts.check(r.body.id)
    expect((await payout(r.body.id)).status).to.equal('SUCCESS')
    expect(await balance(a.agent.id)).to.equal(450)
  })

  it('a transfer Paystack refuses (its balance is short) fails at once, returns the money and is listed for the admin', async () => {
    const a = await agentWithNumber(1000)
    fake.refuseNextTransfer('Your balance is not enough to fulfil this request')
    const r = await a.c.post('/api/payouts', { amount: 5 })
    await ps.services.queue.drain()
    const p = await payout(r.body.id)
    expect(p.status).to.equal('FAILED')
    expect(p.message).to.include('Your balance is not enough')
    expect(await balance(a.agent.id)).to.equal(1000)
    expect(await sql(`SELECT kind FROM payment_issues WHERE kind = 'payout_refused'`)).to.have.length(1)
  })

  it('above the approval amount nothing is sent until an admin approves; reject returns the money; both audited', async () => {
    await setSettings({ payoutApprovalAbove: 5 })
    const a = await agentWithNumber(3000)
    const big = await a.c.post('/api/payouts', { amount: 10 })
    expect(big.body.status).to.equal('PENDING_APPROVAL')
    const small = await a.c.post('/api/payouts', { amount: 5 })
    expect(small.body.status).to.equal('QUEUED')
    await ps.services.queue.drain()
    expect([...fake.transfers.keys()]).to.deep.equal([small.body.reference])
    expect(await balance(a.agent.id)).to.equal(3000 - 1050 - 550)

    const admin = new Client(ps.url)
    await admin.login(ADMIN.email, ADMIN.password)
    expect((await a.c.post(`/api/admin/payouts/${big.body.id}/approve`)).status).to.equal(403)
    const list = await admin.get('/api/admin/payouts?status=PENDING_APPROVAL')
    expect(list.body.payouts.map((p: any) => p.id)).to.deep.equal([big.body.id])
    const ok = await admin.post(`/api/admin/payouts/${big.body.id}/approve`)
    expect(ok.status, ok.text).to.equal(200)
    expect(ok.body.status).to.equal('QUEUED')
    expect((await admin.post(`/api/admin/payouts/${big.body.id}/approve`)).status).to.equal(409)
    await ps.services.queue.drain()
    expect(fake.transfers.has(big.body.reference)).to.equal(true)

    const third = await a.c.post('/api/payouts', { amount: 9 })
    expect(third.body.status).to.equal('PENDING_APPROVAL')
    expect((await admin.post(`/api/admin/payouts/${third.body.id}/reject`, {})).status).to.equal(400)
    const rej = await admin.post(`/api/admin/payouts/${third.body.id}/reject`, { reason: 'Unusual amount' })
    expect(rej.status, rej.text).to.equal(200)
    expect(rej.body.status).to.equal('REJECTED')
    expect((await admin.post(`/api/admin/payouts/${third.body.id}/approve`)).status).to.equal(409)
    await ps.services.queue.drain()
    expect(fake.transfers.has(third.body.reference)).to.equal(false)
    expect(await balance(a.agent.id)).to.equal(3000 - 1050 - 550)
    const actions = (await sql<{ action: string }>(`SELECT action FROM audit_logs WHERE resource = 'PAYOUT' ORDER BY id`)).map((x) => x.action)
    expect(actions).to.include.members(['PAYOUT_REQUESTED', 'PAYOUT_APPROVED', 'PAYOUT_REJECTED'])
  })

  it("Paystack's never-sent words (abandoned, blocked, rejected) fail a payout and reversed reverses it, both returning the money; otp keeps it open and lists it", async () => {
    const a = await agentWithNumber(5000)
    for (const word of ['abandoned', 'blocked', 'rejected', 'reversed', 'otp'] as const) {
      const r = await a.c.post('/api/payouts', { amount: 5 })
      expect(r.status, r.text).to.equal(201)
      await ps.services.queue.drain()
      fake.completeTransfer(r.body.reference, word)
      await ps.services.payouts.check(r.body.id)
      const p = await payout(r.body.id)
      if (word === 'otp') {
        // Still owed: the gateway waits for an OTP, the admin is told (below).
        expect(p.status).to.equal('SENT')
        expect(await entries(r.body.id)).to.deep.equal(['PAYOUT'])
      } else {
        expect(p.status, word).to.equal(word === 'reversed' ? 'REVERSED' : 'FAILED')
        expect(await entries(r.body.id)).to.deep.equal(['PAYOUT', 'PAYOUT_RETURN'])
      }
    }
    expect(await balance(a.agent.id)).to.equal(5000 - 550)
    expect(await sql(`SELECT kind FROM payment_issues WHERE kind = 'payout_otp'`)).to.have.length(1)
  })

  it('a number Paystack cannot be asked about now (resolve answers 502) is a 503 with a clear message, and nothing is kept', async () => {
    const a = await createAgent()
    const c = new Client(ps.url)
    expect((await c.login(a.user.email, a.password)).status).to.equal(200)
    fake.resolveTrouble({ kind: '502' })
    const r = await c.post('/api/payouts/number', { network: 'MTN', phone: '0241234567', accountName: 'Kofi Mensah' })
    expect(r.status, r.text).to.equal(503)
    expect(r.body.error).to.equal('We could not reach the payment gateway to verify this number. Please try again in a minute.')
    expect(await sql('SELECT id FROM payout_numbers WHERE agent_id = :id', { id: a.agent.id })).to.have.length(0)
    expect((await c.get('/api/payouts')).body).to.deep.include({ number: null, simulator: false })
  })

  it('with a Paystack key there is no transfers simulator: its state and its control answer 404', async () => {
    const a = await createAgent()
    const c = new Client(ps.url)
    expect((await c.login(a.user.email, a.password)).status).to.equal(200)
    for (const r of [await c.get('/api/payouts/simulator'), await c.post('/api/payouts/simulator', { mode: 'fail' })]) {
      expect(r.status, r.text).to.equal(404)
      expect(r.body.error).to.equal('The transfers simulator runs only without a Paystack key')
    }
  })
})
