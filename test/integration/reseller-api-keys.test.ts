import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { createAgent } from '../helpers/factories.ts'
import { Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

// The reseller API keys' own rules: the name, the cap per agent, the prefix shown, what the audit trail keeps,
// which ids a revoke accepts, and how often a key's last use is written.
async function portalOfAgent() {
  const a = await createAgent()
  const portal = new Client()
  await portal.login(a.user.email, a.password)
  return { ...a, portal }
}

const sql = <T extends object>(query: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(query, { replacements, type: QueryTypes.SELECT })

const NAME_RULE = 'Give the key a name (1 to 60 characters)'

describe('reseller API keys', () => {
  beforeEach(resetDb)

  it('takes a name of 1 to 60 characters, trimmed, and answers 400 otherwise, also without a JSON body', async () => {
    const { portal } = await portalOfAgent()
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(61) }, { name: 42 }]) {
      const res = await portal.post('/api/reseller/keys', body)
      expect(res.status, JSON.stringify(body)).to.equal(400)
      expect(res.body.message).to.equal(NAME_RULE)
    }
    const plain = await portal.request('POST', '/api/reseller/keys')
    expect(plain.status).to.equal(400)
    expect(plain.body.message).to.equal(NAME_RULE)

    for (const name of ['ab', 'x'.repeat(60)]) expect((await portal.post('/api/reseller/keys', { name })).body.name).to.equal(name)
    const trimmed = await portal.post('/api/reseller/keys', { name: '  My shop  ' })
    expect(trimmed.status).to.equal(201)
    expect(trimmed.body.name).to.equal('My shop')
    expect(trimmed.body.prefix).to.equal(trimmed.body.key.slice(0, 'dh_live_'.length + 6))
    expect((await sql<{ name: string }>('SELECT name FROM api_keys WHERE id = :id', { id: trimmed.body.id }))[0]!.name).to.equal('My shop')
  })

  it('allows 10 active keys per agent; a revoked one frees its place', async () => {
    const { portal } = await portalOfAgent()
    const ids: number[] = []
    for (let i = 1; i <= 10; i++) {
      const res = await portal.post('/api/reseller/keys', { name: `Key ${i}` })
      expect(res.status, `key ${i}`).to.equal(201)
      ids.push(res.body.id)
    }
    const eleventh = await portal.post('/api/reseller/keys', { name: 'Key 11' })
    expect(eleventh.status).to.equal(409)
    expect(eleventh.body.message).to.equal('You can have at most 10 active API keys. Revoke one first.')
    expect((await portal.delete(`/api/reseller/keys/${ids[0]}`)).status).to.equal(200)
    expect((await portal.post('/api/reseller/keys', { name: 'Key 11' })).status).to.equal(201)
    expect((await portal.get('/api/reseller/keys')).body.keys).to.have.length(10)
  })

  it('records the key, its name and prefix on creation and the key and prefix on revocation, never the key itself', async () => {
    const { agent, user, portal } = await portalOfAgent()
    const created = (await portal.post('/api/reseller/keys', { name: 'Till' })).body
    expect((await portal.delete(`/api/reseller/keys/${created.id}`)).body).to.deep.equal({ revoked: true })
    // Each entry names the agent's user who acted (the request's context, in the change's transaction).
    const entries = await sql<{ action: string; resource_id: string; user_id: number; severity: string; details: unknown }>(
      "SELECT action, resource_id, user_id, severity, details FROM audit_logs WHERE action LIKE 'API_KEY_%' ORDER BY id"
    )
    expect(entries).to.deep.equal([
      {
        action: 'API_KEY_CREATED',
        resource_id: String(agent.id),
        user_id: user.id,
        severity: 'MEDIUM',
        details: { keyId: created.id, name: 'Till', prefix: created.prefix }
      },
      { action: 'API_KEY_REVOKED', resource_id: String(agent.id), user_id: user.id, severity: 'MEDIUM', details: { keyId: created.id, prefix: created.prefix } }
    ])
    expect(JSON.stringify(entries)).to.not.include(created.key)
  })

  it('answers 404 to a revoke of an id that is not a key id, rather than failing in the database', async () => {
    const { portal } = await portalOfAgent()
    for (const id of ['abc', '1.5', '2147483648', '9007199254740993']) {
      const res = await portal.delete(`/api/reseller/keys/${id}`)
      expect(res.status, id).to.equal(404)
      expect(res.body.message).to.equal('API key not found')
    }
  })

  it("writes a key's last use at most once a minute", async () => {
    const { portal } = await portalOfAgent()
    const created = (await portal.post('/api/reseller/keys', { name: 'Busy' })).body
    const api = new Client()
    api.bearer = created.key
    const lastUsed = async () => (await sql<{ t: string }>('SELECT last_used_at::text AS t FROM api_keys WHERE id = :id', { id: created.id }))[0]!.t
    const setLastUsed = (secondsAgo: number) =>
      app().db.sequelize.query("UPDATE api_keys SET last_used_at = date_trunc('second', now()) - make_interval(secs => :s) WHERE id = :id", {
        replacements: { s: secondsAgo, id: created.id }
      })

    await setLastUsed(30)
    const recent = await lastUsed()
    expect((await api.get('/api/v1/balance')).status).to.equal(200)
    expect(await lastUsed()).to.equal(recent)

    await setLastUsed(120)
    const old = await lastUsed()
    expect((await api.get('/api/v1/balance')).status).to.equal(200)
    expect(await lastUsed()).to.not.equal(old)
  })
})
