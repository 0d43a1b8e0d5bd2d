import { expect } from 'chai'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { agentClient } from '../helpers/agents-api.ts'

describe('agents API: inbox (/api/admin-messages)', () => {
  beforeEach(resetDb)

  async function message(userIds: number[], title: string) {
    const { AdminMessage, AdminMessageRecipient } = app().db.models
    const m = await AdminMessage.create({ title, message: `${title} body`, priority: 'HIGH' })
    for (const userId of userIds) await AdminMessageRecipient.create({ messageId: m.get('id'), userId, isRead: false })
    return m.get('id') as number
  }

  it('lists own messages, counts unread, marks read once and never goes below 0', async () => {
    const a = await agentClient()
    const b = await agentClient()
    const m1 = await message([a.user.id, b.user.id], 'Price update')
    await message([a.user.id], 'Welcome')
    const mB = await message([b.user.id], 'Only for B')

    const list = await a.c.get('/api/admin-messages/my-messages')
    expect(list.status).to.equal(200)
    // Spec section 7 answers { messages: [...] }, not a bare array.
    expect(list.body).to.have.keys(['messages'])
    expect(list.body.messages.map((x: any) => x.message.title)).to.deep.equal(['Welcome', 'Price update'])
    expect(list.body.messages[0]).to.have.keys(['id', 'messageId', 'isRead', 'readAt', 'message'])
    expect(list.body.messages[0].message).to.include({ priority: 'HIGH', message: 'Welcome body' })
    expect((await a.c.get('/api/admin-messages/unread-count')).body).to.deep.equal({ unreadCount: 2 })

    const read = await a.c.patch(`/api/admin-messages/${m1}/read`)
    expect(read.status).to.equal(200)
    expect(read.body.unreadCount).to.equal(1)
    expect((await a.c.patch(`/api/admin-messages/${m1}/read`)).body.unreadCount).to.equal(1)
    // B's copy of the same message is untouched.
    expect((await b.c.get('/api/admin-messages/unread-count')).body.unreadCount).to.equal(2)

    // A cannot read or mark B's message.
    expect((await a.c.patch(`/api/admin-messages/${mB}/read`)).status).to.equal(404)
    expect((await b.c.get('/api/admin-messages/my-messages')).body.messages.map((x: any) => x.message.title)).to.include('Only for B')
    expect((await a.c.get('/api/admin-messages/my-messages')).body.messages.map((x: any) => x.message.title)).to.not.include('Only for B')
    expect((await a.c.patch('/api/admin-messages/x/read')).status).to.equal(400)
  })

  it('keeps messages from unapproved or unpaid agents and from non-agents', async () => {
    const a = await agentClient({ approved: false })
    await message([a.user.id], 'Hidden')
    expect((await a.c.get('/api/admin-messages/my-messages')).status).to.equal(403)
    expect((await a.c.get('/api/admin-messages/unread-count')).status).to.equal(403)
    const admin = await adminClient()
    expect((await admin.get('/api/admin-messages/my-messages')).status).to.equal(403)
    expect((await new Client().get('/api/admin-messages/unread-count')).status).to.equal(401)
  })
})
