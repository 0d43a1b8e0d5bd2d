import { expect } from 'chai'
import * as factories from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { resetDb } from '../helpers/server.ts'

const browser = { 'User-Agent': 'Mozilla/5.0', Accept: 'text/html' }

// The dashboard reads its inbox, latest orders and profile as plain rows (ADR 0043): what it shows is
// still each agent's own, and a change shows on the very next load.
describe('agent dashboard: plain-row reads', () => {
  beforeEach(resetDb)

  async function signedIn(name: string) {
    const a = await factories.createAgent({ name })
    const client = new Client()
    expect((await client.login(a.user.email, a.password)).status).to.equal(200)
    return { ...a, client }
  }
  const dashboard = async (c: Client) => {
    const r = await c.get('/agent/dashboard', browser)
    expect(r.status).to.equal(200)
    return r.text
  }

  it('shows each agent only its own messages, orders and name, and a new one on the next load', async () => {
    const admin = await adminClient()
    const one = await signedIn('Ama Owusu')
    const two = await signedIn('Kofi Mensah')
    await factories.createOrder({ agentId: one.agent.id, userId: one.user.id, recipientNumber: '0241110001', paymentStatus: 'SUCCESS' })
    const sent = await admin.post('/api/admin-messages', { title: 'Only for one', message: 'Hello one', priority: 'HIGH', recipientIds: [one.user.id] })
    expect(sent.status).to.equal(201)

    const first = await dashboard(one.client)
    expect(first).to.include('Only for one').and.include('0241110001').and.include(String(one.agent.name))
    const other = await dashboard(two.client)
    expect(other).to.not.include('Only for one')
    expect(other).to.not.include('0241110001')
    expect(other).to.include(String(two.agent.name)).and.not.include(String(one.agent.name))

    await factories.createOrder({ agentId: one.agent.id, userId: one.user.id, recipientNumber: '0241110002', paymentStatus: 'PENDING' })
    await admin.post('/api/admin-messages', { title: 'A second word', message: 'Again', priority: 'LOW', recipientIds: [one.user.id] })
    const next = await dashboard(one.client)
    expect(next).to.include('A second word').and.include('0241110002')
    // The inbox API answers the same rows the page shows, newest first, with the unread count.
    const inbox = await one.client.get('/api/admin-messages/my-messages')
    expect(inbox.status).to.equal(200)
    expect(inbox.body.messages.map((m: { message: { title: string } }) => m.message.title)).to.deep.equal(['A second word', 'Only for one'])
    expect(inbox.body.messages[0]).to.include({ isRead: false, readAt: null })
    expect((await one.client.get('/api/admin-messages/unread-count')).body).to.deep.equal({ unreadCount: 2 })
  })
})
