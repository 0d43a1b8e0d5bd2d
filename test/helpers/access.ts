import { expect } from 'chai'
import { createAgent, createUser } from './factories.ts'
import { Client } from './http.ts'

/** An admin-only route's refusals: a visitor gets 401, a signed-in agent and a signed-in customer 403, on each call. */
export async function expectAdminOnly(calls: Array<[string, string, unknown?]>): Promise<void> {
  const { user, password } = await createAgent()
  const agent = new Client()
  await agent.login(user.email, password)
  const cust = await createUser()
  const customer = new Client()
  await customer.login(cust.email, cust.password)
  for (const [method, path, body] of calls) {
    expect((await new Client().request(method, path, body)).status, `visitor ${path}`).to.equal(401)
    expect((await agent.request(method, path, body)).status, `agent ${path}`).to.equal(403)
    expect((await customer.request(method, path, body)).status, `customer ${path}`).to.equal(403)
  }
}
