import { expect } from 'chai'
import { Client, adminClient } from '../helpers/http.ts'
import { createAgent } from '../helpers/factories.ts'
import { app, resetDb } from '../helpers/server.ts'

const location = (r: { headers: Headers }) => r.headers.get('location')

describe('pages: routes, redirects and guards on the server', () => {
  beforeEach(resetDb)

  it('renders the home page on the server and streams it', async () => {
    const res = await fetch(app().url + '/', { headers: { 'User-Agent': 'Mozilla/5.0' } })
    expect(res.status).to.equal(200)
    const reader = res.body!.getReader()
    const first = new TextDecoder().decode((await reader.read()).value)
    // The head arrives in the first chunk, before the body is complete.
    expect(first).to.include('<head>')
    let rest = ''
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value)
    expect(first + rest)
      .to.include('Data Hub')
      .and.include('</html>')
  })

  it('sends visitors from admin and agent pages to /login, and lets the admin in', async () => {
    const visitor = new Client()
    const r = await visitor.get('/admin/orders')
    expect([301, 302, 307]).to.include(r.status)
    expect(location(r)).to.equal('/login')
    expect(location(await visitor.get('/agent/orders'))).to.equal('/login')
    const admin = await adminClient()
    expect((await admin.get('/admin/orders')).status).to.equal(200)
  })

  it('sends a wrong role to its own area', async () => {
    const { user, password } = await createAgent()
    const agent = new Client()
    await agent.login(user.email, password)
    expect(location(await agent.get('/admin/overview'))).to.equal('/agent/dashboard')
    const admin = await adminClient()
    expect(location(await admin.get('/agent/dashboard'))).to.equal('/admin/overview')
  })

  it('follows the route table redirects', async () => {
    const c = new Client()
    expect(location(await c.get('/buy'))).to.equal('/data-services')
    expect(location(await c.get('/my-orders'))).to.equal('/data-services')
    expect(location(await c.get('/no-such-page'))).to.equal('/')
    const admin = await adminClient()
    expect(location(await admin.get('/admin'))).to.equal('/admin/overview')
    expect(location(await admin.get('/admin/no-such'))).to.equal('/admin/overview')
    const { user, password } = await createAgent()
    const agent = new Client()
    await agent.login(user.email, password)
    expect(location(await agent.get('/agent'))).to.equal('/agent/dashboard')
    expect(location(await agent.get('/agent/no-such'))).to.equal('/agent/dashboard')
  })

  it('closes the shop with the maintenance switch but keeps /login and the admin pages open', async () => {
    const admin = await adminClient()
    expect((await admin.put('/api/settings', { platformOpen: false })).status).to.equal(200)
    const visitor = new Client()
    const home = await visitor.get('/')
    expect(home.status).to.equal(200)
    expect(home.text).to.include('Platform Under Maintenance')
    expect(location(await visitor.get('/data-services'))).to.equal('/')
    expect((await visitor.get('/login')).status).to.equal(200)
    const overview = await admin.get('/admin/overview')
    expect(overview.status).to.equal(200)
    expect(overview.text).to.include('MAINTENANCE MODE ACTIVE - Platform is closed to users')
  })
})
