import { QueryTypes } from 'sequelize'
import * as factories from './factories.ts'
import { Client } from './http.ts'
import { app } from './server.ts'

// The storefront API tests' steps, against the built-in payment simulator (no Paystack key in the test app).
// Loosely typed on purpose: the factories return plain rows.
export const createAgent = (over?: Record<string, any>): Promise<any> => factories.createAgent(over)
export const createPackage = (over?: Record<string, any>): Promise<any> => factories.createPackage(over)
export const createUser = (over?: Record<string, any>): Promise<any> => factories.createUser(over)

export const count = async (sql: string, replacements: Record<string, unknown> = {}) =>
  Number((await app().db.sequelize.query<{ n: string }>(`SELECT count(*) AS n FROM ${sql}`, { replacements, type: QueryTypes.SELECT }))[0]!.n)
export const setSettings = (s: Record<string, unknown>) => app().services.settings.update(s, {})
export const mtn1gb = async () => (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number
export const approve = (tid: string) => new Client().post(`/api/simulator/payments/${tid}/approve`)
export const decline = (tid: string) => new Client().post(`/api/simulator/payments/${tid}/decline`)
export const momo = { payerPhone: '0241234567', payerNetwork: 'MTN' }

/** Places an order from `client` (a browser); the answer carries that client, the only one that may follow the payment. */
export async function buy(over: Record<string, unknown> = {}, client = new Client()) {
  return Object.assign(await client.post('/api/orders', { packageId: await mtn1gb(), recipientNumber: '0201112222', ...momo, ...over }), { client })
}
