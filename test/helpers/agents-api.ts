import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import * as factories from './factories.ts'
import { adminClient, Client } from './http.ts'
import { app } from './server.ts'

// The agents API tests' steps. Loosely typed on purpose: the factories return plain rows.
export const createAgent = (over?: Record<string, any>): Promise<any> => factories.createAgent(over)
export const createUser = (over?: Record<string, any>): Promise<any> => factories.createUser(over)
export const createOrder = (over?: Record<string, any>): Promise<any> => factories.createOrder(over)

export async function agentClient(over: Record<string, any> = {}) {
  const a = await createAgent(over)
  const c = new Client()
  const res = await c.login(a.user.email, a.password)
  expect(res.status).to.equal(200)
  return { ...a, c }
}

export async function setFee(ghs: number) {
  const admin = await adminClient()
  const res = await admin.put('/api/settings', { agentRegistrationFee: ghs })
  expect(res.status).to.equal(200)
}

/** Whether the agent's USSD PIN is locked now (columns shared by the PIN check and the reset). */
export async function pinLocked(agentId: number): Promise<boolean> {
  const [row] = await app().db.sequelize.query<{ locked: boolean }>('SELECT pin_locked_until > now() AS locked FROM agents WHERE id = :id', {
    replacements: { id: agentId },
    type: QueryTypes.SELECT
  })
  return !!row?.locked
}
