import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import type { Services } from '../../server/services/index.ts'
import { createAttention } from '../../server/services/payments/attention.ts'
import { createPayoutsService } from '../../server/services/payouts/index.ts'
import { ADMIN } from '../helpers/server.ts'
import { createAgent } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { AtPhone, ussdAgent } from '../helpers/ussd.ts'

// Payouts on a fresh machine: the transfers simulator (no Paystack key), the admin's
// retry and export, the settings, and the USSD menu's earnings and payout.
describe('payouts (transfers simulator)', function () {
  this.timeout(30_000)
  const sql = async <T extends object = any>(text: string, r: Record<string, unknown> = {}) =>
    app().db.sequelize.query<T>(text, { replacements: r, type: QueryTypes.SELECT }) as Promise<T[]>
  const earn = (agentId: number, pesewas: number) =>
    app().db.sequelize.transaction((t) => app().services.earnings.post({ agentId, type: 'ADJUSTMENT', amountPesewas: pesewas, reason: 'test earnings' }, t))
  const balance = (agentId: number) => app().services.earnings.balancePesewas(agentId)
  const status = async (id: number) => (await sql<{ status: string }>('SELECT status FROM payouts WHERE id = :id', { id }))[0]!.status
  const simulate = (body: Parameters<Services['payouts']['simulatorControl']>[0]) => app().services.payouts.simulatorControl(body, {})

  async function signedIn(a: { user: any; password: string }) {
    const c = new Client()
    expect((await c.login(a.user.email, a.password)).status).to.equal(200)
    return c
  }

  /** An agent with earnings, signed in, with a verified MTN payout number. */
  async function agentWithNumber(pesewas: number) {
    const a = await createAgent()
    await earn(a.agent.id, pesewas)
    const c = await signedIn(a)
    expect((await c.post('/api/payouts/number', { network: 'MTN', phone: '0241234567', accountName: 'Kojo' })).status).to.equal(201)
    return { a, c }
  }

  beforeEach(async () => {
    await resetDb()
    await app().services.settings.update({ payoutMinimum: 2, payoutFee: 0.5, payoutApprovalAbove: 100 }, {})
    simulate({ mode: 'succeed', delayMs: 0 })
  })

  it('ten numbers added at the same moment by one agent: each answered 201 or 409, never 500, and one number stays active', async () => {
    const a = await createAgent()
    const c = await signedIn(a)
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => c.post('/api/payouts/number', { network: 'MTN', phone: `024123456${i}`, accountName: 'Kojo' }))
    )
    const statuses = answers.map((r) => r.status)
    expect(
      statuses.filter((s) => s !== 201 && s !== 409),
      answers.map((r) => r.text).join('\n')
    ).to.deep.equal([])
    const active = await sql('SELECT phone FROM payout_numbers WHERE agent_id = :id AND removed_at IS NULL', { id: a.agent.id })
    expect(active).to.have.length(1)
    // Every 201 kept its number (and wrote its audit entry) before the next replaced it.
    const added = await sql<{ n: number }>("SELECT count(*)::int AS n FROM audit_logs WHERE action = 'PAYOUT_NUMBER_ADDED' AND resource_id = :id", {
      id: String(a.agent.id)
    })
    expect(added[0]!.n).to.equal(statuses.filter((s) => s === 201).length)
  })

  it('on a fresh machine: any well-formed number verifies, a payout is held, sent by the queue and succeeds; bad input changes nothing', async () => {
    expect(app().services.payouts.providerName).to.equal('simulator')
    const a = await createAgent()
    await earn(a.agent.id, 2000)
    const c = await signedIn(a)
    expect((await c.post('/api/payouts', { amount: 5 })).body.error).to.equal('Add and verify a payout number first')
    expect((await c.post('/api/payouts/number', { network: 'MTN', phone: '12345', accountName: 'Ama' })).status).to.equal(400)
    expect((await c.post('/api/payouts/number', { network: 'VISA', phone: '0241234567', accountName: 'Ama' })).body.error).to.match(/Choose the network/)
    const n = await c.post('/api/payouts/number', { network: 'TELECEL', phone: '233201234567', accountName: 'Ama Owusu' })
    expect(n.status, n.text).to.equal(201)
    expect(n.body).to.include({ network: 'TELECEL', phone: '0201234567', accountName: 'Ama Owusu' })
    expect((await c.post('/api/payouts', { amount: 1 })).body.error).to.equal('The minimum payout is GH₵2.00')
    expect((await c.post('/api/payouts', { amount: 'ten' })).status).to.equal(400)
    expect((await c.post('/api/payouts', { amount: 5.555 })).status).to.equal(400)
    expect(await balance(a.agent.id)).to.equal(2000)

    const p = await c.post('/api/payouts', { amount: 5 })
    expect(p.status, p.text).to.equal(201)
    expect(p.body).to.include({ status: 'QUEUED', amount: 5, fee: 0.5, network: 'TELECEL', phone: '0201234567' })
    expect(await balance(a.agent.id)).to.equal(1450)
    await app().services.queue.drain()
    expect(await status(p.body.id)).to.equal('SUCCESS')
    const mine = await c.get('/api/payouts')
    expect(mine.body).to.deep.include({ available: 14.5, simulator: true })
    expect(mine.body.settings).to.deep.equal({ minimum: 2, fee: 0.5, approvalAbove: 100 })
    expect(mine.body.payouts[0]).to.include({ id: p.body.id, status: 'SUCCESS' })
    // Another agent or a visitor cannot see or use these.
    expect((await new Client().get('/api/payouts')).status).to.equal(401)
  })

  it('the simulator control makes the next transfer fail (money back), the admin retries it once as a new payout, and a retry without earnings is refused', async () => {
    const { a, c } = await agentWithNumber(1100)
    simulate({ mode: 'fail', count: 1 })
    const p = await c.post('/api/payouts', { amount: 10 })
    await app().services.queue.drain()
    expect(await status(p.body.id)).to.equal('FAILED')
    expect(await balance(a.agent.id)).to.equal(1100)

    const admin = await adminClient()
    const failed = await admin.get('/api/admin/payouts?status=FAILED')
    expect(failed.body.payouts.map((x: any) => x.id)).to.deep.equal([p.body.id])
    const retry = await admin.post(`/api/admin/payouts/${p.body.id}/retry`)
    expect(retry.status, retry.text).to.equal(201)
    expect(retry.body).to.include({ retryOf: p.body.id, status: 'QUEUED', amount: 10, channel: 'admin' })
    expect((await admin.post(`/api/admin/payouts/${p.body.id}/retry`)).body.error).to.equal(`This payout was already retried as payout #${retry.body.id}`)
    await app().services.queue.drain()
    expect(await status(retry.body.id)).to.equal('SUCCESS')
    expect(await balance(a.agent.id)).to.equal(50)

    // A reversed one, retried when the earnings no longer cover it.
    await earn(a.agent.id, 1000)
    simulate({ mode: 'reverse', count: 1 })
    const q = await c.post('/api/payouts', { amount: 10 })
    await app().services.queue.drain()
    expect(await status(q.body.id)).to.equal('REVERSED')
    expect(await balance(a.agent.id)).to.equal(1050)
    await c.post('/api/payouts', { amount: 5 })
    const short = await admin.post(`/api/admin/payouts/${q.body.id}/retry`)
    expect(short.status).to.equal(402)
    expect(short.body.error).to.equal('The agent no longer has enough available earnings for this payout (GH₵5.00 available).')
    expect((await admin.post(`/api/admin/payouts/${retry.body.id}/retry`)).body.error).to.equal('Only failed or reversed payouts can be retried')
    const actions = (await sql<{ action: string }>(`SELECT action FROM audit_logs WHERE resource = 'PAYOUT' ORDER BY id`)).map((x) => x.action)
    expect(actions).to.include.members(['PAYOUT_REQUESTED', 'PAYOUT_FAILED', 'PAYOUT_RETRIED', 'PAYOUT_SUCCEEDED', 'PAYOUT_REVERSED'])
  })

  it('a simulated timeout leaves the payout pending; the check asks again and it settles', async () => {
    const { a, c } = await agentWithNumber(1000)
    simulate({ mode: 'timeout', count: 1 })
    const p = await c.post('/api/payouts', { amount: 4 })
    await app().services.queue.drain()
    expect(await status(p.body.id)).to.equal('UNKNOWN')
    expect(await balance(a.agent.id)).to.equal(550)
    await app().services.payouts.check(p.body.id)
    expect(await status(p.body.id)).to.equal('SUCCESS')
  })

  it('admin: tabs with counts, CSV export, settings in the Payouts section; agents cannot use the admin routes', async () => {
    const a = await createAgent({ name: 'Esi Shop' })
    await earn(a.agent.id, 50_000)
    const c = await signedIn(a)
    await c.post('/api/payouts/number', { network: 'AIRTELTIGO', phone: '0271234567', accountName: 'Esi' })
    const big = await c.post('/api/payouts', { amount: 150 })
    expect(big.body.status).to.equal('PENDING_APPROVAL')
    await c.post('/api/payouts', { amount: 20 })
    await app().services.queue.drain()
    const admin = await adminClient()
    const all = await admin.get('/api/admin/payouts')
    expect(all.body.counts).to.deep.equal({ PENDING_APPROVAL: 1, SUCCESS: 1 })
    expect(all.body.pagination.total).to.equal(2)
    const csv = await admin.get('/api/admin/payouts/export.csv?status=PENDING_APPROVAL')
    expect(csv.status).to.equal(200)
    expect(csv.headers.get('content-type')).to.contain('text/csv')
    const lines = csv.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
    expect(lines[0]).to.equal(
      'Payout,Requested,Agent,Agent phone,Network,Payout number,Account name,Amount (GHS),Fee (GHS),Status,Reference,Channel,Message,Updated'
    )
    expect(lines).to.have.length(2)
    expect(lines[1]).to.contain('Esi Shop').and.contain('150.00').and.contain('PENDING_APPROVAL')
    expect(await sql(`SELECT id FROM audit_logs WHERE action = 'PAYOUTS_EXPORTED'`)).to.have.length(1)
    expect((await c.get('/api/admin/payouts')).status).to.equal(403)
    expect((await admin.get('/api/admin/payouts?status=NOPE')).status).to.equal(400)

    const saved = await admin.put('/api/settings', { payoutMinimum: 5, payoutFee: 1, payoutApprovalAbove: 0 })
    expect(saved.status, saved.text).to.equal(200)
    expect(saved.body).to.include({ payoutMinimum: 5, payoutFee: 1, payoutApprovalAbove: 0 })
    expect((await admin.put('/api/settings', { payoutMinimum: 0 })).status).to.equal(400)
    // 0: every payout waits for an admin.
    expect((await c.post('/api/payouts', { amount: 5 })).body.status).to.equal('PENDING_APPROVAL')
  })

  describe('USSD', () => {
    async function signedInDial(phone: string, pin: string) {
      const dial = new AtPhone(phone)
      await dial.dial()
      expect((await dial.send(pin)).text).to.contain('4. Earnings and payout')
      return dial
    }

    it('shows the earnings; a payout with the right PIN creates one payout to the verified number; a wrong PIN is refused', async () => {
      const a = await ussdAgent({ phone: '0241110020' })
      await earn(a.agent.id, 3000)
      const c = await signedIn(a)
      await c.post('/api/payouts/number', { network: 'MTN', phone: '0541234567', accountName: 'Yaw' })
      const dial = await signedInDial('+233241110020', a.pin)
      let hop = await dial.send('4')
      expect(hop.body).to.equal('CON Shop earnings\nAvailable: GHS 30.00\nPayout to: MTN 0541234567\n1. Request payout\n0 Back 00 Menu')
      hop = await dial.send('1')
      expect(hop.text).to.contain('minimum GHS 2.00, fee GHS 0.50')
      expect((await dial.send('1')).text).to.contain('Minimum is GHS 2.00.')
      hop = await dial.send('12.5')
      expect(hop.text).to.equal('Payout GHS 12.50 to MTN 0541234567\nFee GHS 0.50. Enter your PIN to confirm:\n0 Back 00 Menu')
      hop = await dial.send('9999')
      expect(hop.con).to.equal(true)
      expect(hop.text).to.contain('Wrong PIN. 4 tries left.')
      expect(await sql('SELECT id FROM payouts')).to.have.length(0)
      hop = await dial.send(a.pin)
      expect(hop.end, hop.body).to.equal(true)
      expect(hop.text).to.match(/^Payout #\d+ of GHS 12\.50 requested\. It goes to MTN 0541234567\.$/)
      // The telco sends the same hop again: still one payout.
      await dial.hop()
      const rows = await sql<{ channel: string; amount_pesewas: string }>('SELECT channel, amount_pesewas FROM payouts')
      expect(rows).to.deep.equal([{ channel: 'ussd', amount_pesewas: '1250' }])
      expect(await balance(a.agent.id)).to.equal(1700)
      await app().services.queue.drain()
      expect((await c.get('/api/payouts')).body.payouts[0].status).to.equal('SUCCESS')
    })

    it('without a verified number it says where to add one; more than the earnings is refused with the reason', async () => {
      const a = await ussdAgent({ phone: '0241110021' })
      await earn(a.agent.id, 500)
      let dial = await signedInDial('0241110021', a.pin)
      let hop = await dial.send('4')
      expect(hop.text).to.contain('Available: GHS 5.00').and.contain('Add a payout number in the agent portal')
      expect((await dial.send('1')).text).to.contain('Invalid choice.')
      const c = await signedIn(a)
      await c.post('/api/payouts/number', { network: 'MTN', phone: '0541234567', accountName: 'Yaw' })
      dial = await signedInDial('0241110021', a.pin)
      await dial.send('4')
      await dial.send('1')
      await dial.send('9')
      hop = await dial.send(a.pin)
      expect(hop.end).to.equal(true)
      expect(hop.text).to.equal('Not enough available earnings: you have GHS 5.00 available and this payout needs GHS 9.50 including the fee.')
      expect(await balance(a.agent.id)).to.equal(500)
      for (const h of [hop]) expect(h.body.length).to.be.at.most(182)
    })
  })

  it('takes a payout of exactly the minimum; the request is audited with its details, by the agent, in its transaction', async () => {
    const { a, c } = await agentWithNumber(1000)
    const p = await c.post('/api/payouts', { amount: 2 })
    expect(p.status, p.text).to.equal(201)
    expect(p.body).to.include({ status: 'QUEUED', amount: 2, fee: 0.5, total: 2.5 })
    const audits = await sql(`SELECT user_id, severity, details FROM audit_logs WHERE action = 'PAYOUT_REQUESTED' AND resource_id = :id`, {
      id: String(p.body.id)
    })
    expect(audits).to.have.length(1)
    expect(audits[0]).to.deep.include({ user_id: a.user.id, severity: 'MEDIUM' })
    expect(audits[0].details).to.deep.equal({
      agentId: a.agent.id,
      amount: 2,
      fee: 0.5,
      network: 'MTN',
      phone: '0241234567',
      channel: 'web',
      needsApproval: false
    })
  })

  it('a payout number is replaced and removed with audit entries naming it; removing none is a 404 and then no payout can be asked', async () => {
    const { a, c } = await agentWithNumber(1000)
    const replaced = await c.post('/api/payouts/number', { network: 'TELECEL', phone: '0201234567', accountName: 'Kojo Two' })
    expect(replaced.status, replaced.text).to.equal(201)
    expect(replaced.body).to.include({ network: 'TELECEL', networkLabel: 'Telecel', phone: '0201234567', accountName: 'Kojo Two' })
    expect(Date.parse(replaced.body.verifiedAt)).to.be.closeTo(Date.now(), 60_000)
    const removed = await c.delete('/api/payouts/number')
    expect(removed.status, removed.text).to.equal(200)
    expect(removed.body).to.deep.equal({ removed: true })
    const again = await c.delete('/api/payouts/number')
    expect(again.status).to.equal(404)
    expect(again.body.error).to.equal('No payout number to remove')
    expect((await c.get('/api/payouts')).body.number).to.equal(null)
    expect((await c.post('/api/payouts', { amount: 5 })).body.error).to.equal('Add and verify a payout number first')
    const audits = await sql(`SELECT action, user_id, severity, details FROM audit_logs WHERE resource = 'AGENT' AND resource_id = :id ORDER BY id`, {
      id: String(a.agent.id)
    })
    expect(audits.filter((x) => x.action.startsWith('PAYOUT_NUMBER'))).to.deep.equal([
      {
        action: 'PAYOUT_NUMBER_ADDED',
        user_id: a.user.id,
        severity: 'HIGH',
        details: { network: 'MTN', phone: '0241234567', accountName: 'Kojo', replaced: null }
      },
      {
        action: 'PAYOUT_NUMBER_ADDED',
        user_id: a.user.id,
        severity: 'HIGH',
        details: { network: 'TELECEL', phone: '0201234567', accountName: 'Kojo Two', replaced: 'MTN 0241234567' }
      },
      { action: 'PAYOUT_NUMBER_REMOVED', user_id: a.user.id, severity: 'MEDIUM', details: { network: 'TELECEL', phone: '0201234567' } }
    ])
  })

  it('in production the transfers simulator control is for admins, whoever calls the service', async () => {
    const s = app().services
    const { sequelize } = app().db
    const env = { ...s.deps.env, NODE_ENV: 'production' as const }
    const prod = createPayoutsService({
      sequelize,
      env,
      log: s.deps.log,
      audit: s.audit,
      settings: s.settings,
      earnings: s.earnings,
      queue: s.queue,
      attention: createAttention({ sequelize })
    })
    const a = await createAgent()
    const [admin] = await sql<{ id: number }>('SELECT id FROM users WHERE email = :email', { email: ADMIN.email })
    for (const ctx of [{}, { user: await s.auth.loadActor(a.user.id) }]) {
      let refused: any
      try {
        prod.simulatorControl({ mode: 'fail' }, ctx)
      } catch (e) {
        refused = e
      }
      expect(refused).to.include({ status: 403, message: 'The transfers simulator control is for admins' })
    }
    expect(prod.simulatorControl({ mode: 'fail', count: 2 }, { user: await s.auth.loadActor(admin!.id) })).to.include({ mode: 'fail', remaining: 2 })
  })
})
