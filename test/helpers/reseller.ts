import { expect } from 'chai'
import { createAgent, createPackage } from './factories.ts'
import { adminClient, Client } from './http.ts'

/**
 * An approved agent whose wallet an admin credited with `ghs`, a package at 450 pesewas for agents, the agent signed
 * in to the portal and an API client holding a new reseller key.
 */
export async function resellerWithKey(ghs = 20, keyName = 'Test') {
  const pkg = await createPackage({ priceAgentPesewas: 450 })
  const a = await createAgent()
  const admin = await adminClient()
  expect((await admin.post(`/api/wallet/agents/${a.agent.id}/adjust`, { amount: ghs, direction: 'CREDIT', reason: 'Test float' })).status).to.equal(200)
  const portal = new Client()
  await portal.login(a.user.email, a.password)
  const api = new Client()
  api.bearer = (await portal.post('/api/reseller/keys', { name: keyName })).body.key
  return { pkg, a, portal, api }
}
