import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { Client } from './http.ts'
import { app } from './server.ts'

// The delivery tests' steps: a paid order, its row, the queued delivery jobs, its audit entries.
export const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })
export const mtn1gb = async () => (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number
export const setSettings = (s: Record<string, unknown>) => app().services.settings.update(s, {})
export const drain = () => app().services.queue.drain()

/** A visitor buys 1GB MTN for 0201112222 and approves on the simulator phone. */
export async function buyAndPay(recipientNumber = '0201112222') {
  const placed = await new Client().post('/api/orders', { packageId: await mtn1gb(), recipientNumber, payerPhone: '0241234567', payerNetwork: 'MTN' })
  expect(placed.status).to.equal(201)
  const tid = placed.body.payment.transactionId as string
  expect((await new Client().post(`/api/simulator/payments/${tid}/approve`)).status).to.equal(200)
  return { id: placed.body.order.id as number, tid }
}

export async function orderOf(id: number) {
  const [o] = await q<any>('SELECT * FROM orders_view WHERE id = :id', { id })
  return o
}

/** The pending delivery jobs, with their payloads (the public jobs view leaves them out). */
export const deliveryJobs = () =>
  q<{ key: string; payload: any }>(
    `SELECT j.key, j.payload FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = 'delivery.send' ORDER BY j.id`
  )

export const audits = (action: string, id: number) =>
  q<any>(`SELECT * FROM audit_logs WHERE action = :action AND resource_id = :id`, { action, id: String(id) })
