import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { createAgent } from './factories.ts'
import { adminClient, Client } from './http.ts'
import { app } from './server.ts'

// The reseller API tests' steps: an agent with a key (and a credited wallet), an order by it, a table's rows counted.
export const count = async (from: string, r: Record<string, unknown> = {}) =>
  Number((await app().db.sequelize.query<{ n: string }>(`SELECT count(*) AS n FROM ${from}`, { replacements: r, type: QueryTypes.SELECT }))[0]!.n)

export async function reseller(over: Record<string, unknown> = {}, credit = 0) {
  const a = await createAgent(over)
  const portal = new Client()
  await portal.login(a.user.email, a.password)
  const created = await portal.post('/api/reseller/keys', { name: 'My shop' })
  expect(created.status, created.text).to.equal(201)
  if (credit) {
    const admin = await adminClient()
    expect((await admin.post(`/api/wallet/agents/${a.agent.id}/adjust`, { amount: credit, direction: 'CREDIT', reason: 'Test float' })).status).to.equal(200)
  }
  const api = new Client()
  api.bearer = created.body.key
  return { ...a, portal, api, key: created.body.key as string, keyId: created.body.id as number }
}

export const order = (api: Client, body: unknown, key?: string) => api.post('/api/v1/orders', body, key ? { 'Idempotency-Key': key } : {})
