import { expect } from 'chai'
import type { Running } from '../../server/index.ts'
import * as factories from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { bootInstance } from '../helpers/instance.ts'
import { cacheState, cspNonce, pageNonces } from '../helpers/page-cache.ts'
import { resetDb } from '../helpers/server.ts'

const browser = { 'User-Agent': 'Mozilla/5.0', Accept: 'text/html' }

// Signed-in pages' data is kept between loads (ADR 0048): per agent on the dashboard, once for all admins on the
// overview. What one agent sees never reaches another, and a change made on either instance shows on the very
// next load, with no waiting: each page below is loaded once before the change so that its data is in memory.
// Orders and payments alone do not tell the overview: it shows them after its few seconds (ADR 0059,
// overview-kept-lifetime.test.ts).
describe('signed-in pages: data kept between loads', () => {
  let second: Running | undefined
  before(async () => {
    second = await bootInstance()
  })
  after(async () => second?.stop())
  beforeEach(resetDb)

  async function signedIn(name: string, over: Parameters<typeof factories.createAgent>[0] = {}) {
    const a = await factories.createAgent({ name, ...over })
    const client = new Client()
    expect((await client.login(a.user.email, a.password)).status).to.equal(200)
    // The same session on the other instance (sessions live in PostgreSQL).
    const elsewhere = new Client(second!.url)
    elsewhere.cookies = client.cookies
    return { ...a, client, elsewhere }
  }
  const load = async (c: Client, path: string) => {
    const r = await c.get(path, browser)
    expect(r.status, path).to.equal(200)
    return r.text as string
  }
  const dashboard = (c: Client) => load(c, '/agent/dashboard')
  const overview = (c: Client) => load(c, '/admin/overview')
  /** A figure the page shows under `label` (a stat box or a summary row). */
  const figure = (html: string, label: string) => new RegExp(`${label}</(?:p|th)><(?:p|td) class="[^"]*">([^<]*)<`).exec(html)?.[1]

  it('answers each agent its own data, on both instances, however often each asks', async () => {
    const one = await signedIn('Ama Owusu')
    const two = await signedIn('Kofi Mensah')
    await factories.createOrder({ agentId: one.agent.id, userId: one.user.id, recipientNumber: '0241110001', paymentStatus: 'SUCCESS' })
    for (let i = 0; i < 2; i++) {
      for (const c of [one.client, one.elsewhere])
        expect(await dashboard(c))
          .to.include('0241110001')
          .and.include('Ama Owusu')
      for (const c of [two.client, two.elsewhere]) {
        const page = await dashboard(c)
        expect(page).to.include('Kofi Mensah').and.not.include('0241110001').and.not.include('Ama Owusu')
      }
    }
  })

  it('shows a new order and its delivery on the next load, made on this instance or the other', async () => {
    const admin = await adminClient()
    const one = await signedIn('Ama Owusu')
    expect(figure(await dashboard(one.client), 'Total Orders')).to.equal('0')
    expect(figure(await dashboard(one.elsewhere), 'Total Orders')).to.equal('0')

    const order = await factories.createOrder({ agentId: one.agent.id, userId: one.user.id, recipientNumber: '0241110002', paymentStatus: 'SUCCESS' })
    for (const c of [one.client, one.elsewhere]) {
      const page = await dashboard(c)
      expect(page).to.include('0241110002')
      expect(figure(page, 'Total Orders')).to.equal('1')
      expect(figure(page, 'Delivered')).to.equal('0')
    }

    expect((await admin.patch(`/api/orders/${order.id}/delivered`, {})).status).to.equal(200)
    for (const c of [one.client, one.elsewhere]) expect(figure(await dashboard(c), 'Delivered')).to.equal('1')
  })

  it('shows a wallet credit, an inbox message and an approval on the next load, on both instances', async () => {
    const adminHere = await adminClient()
    const adminThere = await adminClient(second!.url)
    const one = await signedIn('Ama Owusu', { approved: false })
    // Not yet approved: no wallet, no inbox.
    for (const c of [one.client, one.elsewhere]) expect(await dashboard(c)).to.not.include('data-testid="dashboard-wallet"')

    expect((await adminThere.patch(`/api/agents/${one.agent.id}/approve`, {})).status).to.equal(200)
    for (const c of [one.client, one.elsewhere]) expect(figure(await dashboard(c), 'Wallet balance')).to.equal('GH₵0.00')

    const credit = await adminHere.post(`/api/wallet/agents/${one.agent.id}/adjust`, { amount: 12.5, direction: 'CREDIT', reason: 'Cash paid in' })
    expect(credit.status).to.equal(200)
    for (const c of [one.client, one.elsewhere]) expect(figure(await dashboard(c), 'Wallet balance')).to.equal('GH₵12.50')

    const sent = await adminThere.post('/api/admin-messages', { title: 'Price change', message: 'New prices', priority: 'HIGH', recipientIds: [one.user.id] })
    expect(sent.status).to.equal(201)
    for (const c of [one.client, one.elsewhere]) expect(await dashboard(c)).to.include('Price change')
  })

  it('shows every admin the same overview, and a wallet change on the next load from either instance', async () => {
    const adminHere = await adminClient()
    const other = await factories.createUser({ role: 'ADMIN', email: 'second.admin@test.local' })
    const adminThere = new Client(second!.url)
    expect((await adminThere.login(other.email, other.password)).status).to.equal(200)
    const one = await factories.createAgent({ name: 'Ama Owusu' })

    const liability = async (c: Client) => figure(await overview(c), 'Wallet liability \\(GHS\\)')
    const orders = async (c: Client) => figure(await overview(c), 'Total orders')
    expect(await orders(adminHere)).to.equal('0')
    expect(await orders(adminThere)).to.equal('0')
    // The data is shared, the page is not: each admin's shell names its own account.
    expect(await overview(adminThere)).to.include('second.admin@test.local')
    expect(await overview(adminHere)).to.not.include('second.admin@test.local')

    // An order alone does not tell the overview (shown within its lifetime: overview-kept-lifetime.test.ts).
    await factories.createOrder({ agentId: one.agent.id, userId: one.user.id, paymentStatus: 'SUCCESS' })

    expect(await liability(adminHere)).to.equal('GH₵0.00')
    await adminThere.post(`/api/wallet/agents/${one.agent.id}/adjust`, { amount: 3, direction: 'CREDIT', reason: 'Cash paid in' })
    expect(await liability(adminHere)).to.equal('GH₵3.00')
    expect(await liability(adminThere)).to.equal('GH₵3.00')
    // The wallet's notice dropped the whole overview on both instances: the order shows with it.
    expect(await orders(adminHere)).to.equal('1')
    expect(await orders(adminThere)).to.equal('1')
  })

  it('keeps each session its own rendered page: its own CSRF token and user, a fresh nonce on every answer', async () => {
    const one = await signedIn('Ama Owusu')
    // The same agent signed in a second time: the same data, another session and token.
    const again = new Client()
    expect((await again.login(one.user.email, one.password)).status).to.equal(200)
    const admin = await adminClient()
    const token = (html: string) => /"csrfToken":"([^"]+)"/.exec(html)?.[1]

    const answers = []
    for (const c of [one.client, again, one.client, again, admin, admin]) {
      const r = await c.get(c === admin ? '/admin/overview' : '/agent/dashboard', browser)
      expect(r.status).to.equal(200)
      // The nonce the header names is the one in the page, and no answer repeats another's.
      expect([...pageNonces(r)]).to.deep.equal([cspNonce(r)])
      expect(r.headers.get('cache-control')).to.include('no-store')
      answers.push({ state: cacheState(r), nonce: cspNonce(r), token: token(r.text), text: r.text as string })
    }
    expect(answers.map((a) => a.state)).to.deep.equal(['miss', 'miss', 'hit', 'hit', 'miss', 'hit'])
    expect(new Set(answers.map((a) => a.nonce)).size).to.equal(answers.length)
    expect(answers[0].token).to.be.a('string').and.equal(answers[2].token)
    expect(answers[1].token).to.be.a('string').and.equal(answers[3].token).and.not.equal(answers[0].token)
    expect(answers[4].text).to.include('Total orders').and.not.include('Ama Owusu')
  })

  it('keeps the page apart for each sidebar state the browser remembers in its cookie', async () => {
    const admin = await adminClient()
    const collapsed = (html: string) => /class="app-shell[^"]*is-collapsed/.test(html)
    expect(collapsed(await overview(admin))).to.equal(false)
    admin.cookies.set('sidebar_state', 'false')
    expect(collapsed(await overview(admin))).to.equal(true)
    admin.cookies.set('sidebar_state', 'true')
    expect(collapsed(await overview(admin))).to.equal(false)
  })
})
