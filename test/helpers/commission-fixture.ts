import { QueryTypes } from 'sequelize'
import { createAgent, createCommission, createOrder, createUser } from './factories.ts'
import { app } from './server.ts'

// The commission reports' tests: a hand-computed fixture and reads in SQL.
export const sql = <T extends object = any>(q: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(q, { type: QueryTypes.SELECT, replacements })

/**
 * Hand-computed fixture (pesewas): agent Ama and agent Kofi, one direct buyer.
 *  c1 Ama  MTN        1000 -> 100  2026-03-02 (Mon)
 *  c2 Ama  TELECEL    2000 -> 200  2026-03-08 (Sun)
 *  c3 Kofi MTN         500 ->  50  2026-03-09 (Mon)
 *  c4 -    AIRTELTIGO  800 ->  80  2026-04-01 (Wed)
 *  c5 Kofi MTN        1500 -> 150  2026-04-01 23:30
 * plus Ama's SUCCESS order of 700 with no commission (commission was off), and orders that never paid.
 */
export async function fixture() {
  const ama = await createAgent({ name: 'Ama Sales' })
  const kofi = await createAgent({ name: 'Kofi Data' })
  const buyer = await createUser()
  const c = [
    await createCommission({
      agentId: ama.agent.id,
      userId: ama.user.id,
      network: 'MTN',
      originalAmountPesewas: 1000,
      commissionAmountPesewas: 100,
      createdAt: new Date('2026-03-02T10:00:00Z')
    }),
    await createCommission({
      agentId: ama.agent.id,
      userId: ama.user.id,
      network: 'TELECEL',
      originalAmountPesewas: 2000,
      commissionAmountPesewas: 200,
      createdAt: new Date('2026-03-08T12:00:00Z')
    }),
    await createCommission({
      agentId: kofi.agent.id,
      userId: kofi.user.id,
      network: 'MTN',
      originalAmountPesewas: 500,
      commissionAmountPesewas: 50,
      createdAt: new Date('2026-03-09T08:00:00Z')
    }),
    await createCommission({
      userId: buyer.id,
      network: 'AIRTELTIGO',
      originalAmountPesewas: 800,
      commissionAmountPesewas: 80,
      createdAt: new Date('2026-04-01T09:00:00Z')
    }),
    await createCommission({
      agentId: kofi.agent.id,
      userId: kofi.user.id,
      network: 'MTN',
      originalAmountPesewas: 1500,
      commissionAmountPesewas: 150,
      createdAt: new Date('2026-04-01T23:30:00Z')
    })
  ]
  await createOrder({ agentId: ama.agent.id, userId: ama.user.id, network: 'MTN', amountPesewas: 700, paymentStatus: 'SUCCESS' })
  await createOrder({ agentId: kofi.agent.id, userId: kofi.user.id, network: 'MTN', amountPesewas: 9999, paymentStatus: 'FAILED' })
  await createOrder({ agentId: ama.agent.id, userId: ama.user.id, network: 'TELECEL', amountPesewas: 4444, paymentStatus: 'PENDING' })
  return { ama, kofi, buyer, c, ids: c.map((x) => x.id as number) }
}
