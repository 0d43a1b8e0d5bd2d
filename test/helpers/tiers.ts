import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { adminClient, Client } from './http.ts'
import { app } from './server.ts'
import { ussdAgent } from './ussd.ts'

// Shared by the tier, tier-order and sub-agent report tests (ADR 0041).
export const q = <T extends object = any>(sql: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>

/** resetDb empties every table; these are the migration's four tiers. */
export async function seedTiers() {
  await q(
    `INSERT INTO tiers (name, position, may_invite) VALUES ('Agent', 0, false), ('Super agent', 1, false), ('Dealer', 2, true), ('Super dealer', 3, true) RETURNING id`
  )
}

export async function tierIds() {
  const rows = await q<{ id: number; name: string }>('SELECT id, name FROM tiers ORDER BY position')
  return Object.fromEntries(rows.map((r) => [r.name, r.id])) as Record<'Agent' | 'Super agent' | 'Dealer' | 'Super dealer', number>
}

export async function signedIn(a: { user: { email: string }; password: string }) {
  const c = new Client()
  expect((await c.login(a.user.email, a.password)).status).to.equal(200)
  return c
}

export async function credit(agentId: number, amount: number) {
  const res = await (await adminClient()).post(`/api/wallet/agents/${agentId}/adjust`, { amount, direction: 'CREDIT', reason: 'Float for the test' })
  expect(res.status, res.text).to.equal(200)
}

/** An agent of a tier (set by the admin, through the API) with a USSD PIN; `parent` makes it that agent's sub-agent. */
export async function agentIn(tierId: number, phone: string, parent?: number) {
  const a = await ussdAgent({ phone })
  const admin = await adminClient()
  const set = await admin.put(`/api/admin/tiers/agents/${a.agent.id}`, { tierId })
  expect(set.status, set.text).to.equal(200)
  if (parent) await q('UPDATE agents SET parent_agent_id = :parent WHERE id = :id RETURNING id', { parent, id: a.agent.id })
  return { ...a, c: await signedIn(a) }
}

export async function earnings(c: Client) {
  const res = await c.get('/api/wallet/earnings')
  expect(res.status, res.text).to.equal(200)
  return res.body as { available: number; entries: { type: string; amount: number; orderId: number }[] }
}
