import { expect } from 'chai'
import { QueryTypes, type Transaction } from 'sequelize'
import { createEventBus } from '../../server/services/events/bus.ts'
import { createDomainEvents } from '../../server/services/events/index.ts'
import { createOrder } from '../helpers/factories.ts'
import { adminClient } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { rejection } from '../helpers/rejection.ts'

// The domain-event bus (ADR 0037): handlers run in the publisher's transaction, in the order they
// subscribed, and a handler's throw rolls the publisher's whole transaction back.
const q = <T extends object = any>(sql: string, replacements: Record<string, unknown> = {}, transaction?: Transaction) =>
  app().db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction }) as Promise<T[]>
const txid = async (t: Transaction) => (await q<{ x: string }>('SELECT pg_current_xact_id()::text AS x', {}, t))[0]!.x

describe('domain events', () => {
  beforeEach(resetDb)

  it('handlers run one after the other in the order they subscribed, in the transaction of the publisher, with its payload', async () => {
    const events = createDomainEvents()
    const order = await createOrder({ paymentStatus: 'SUCCESS' })
    const seen: string[] = []
    events.on('orders.exported', async ({ stamp }, { transaction }) => {
      await new Promise((r) => setTimeout(r, 20)) // a slow first handler still finishes before the second starts
      seen.push(`first ${stamp} ${await txid(transaction)}`)
    })
    events.on('orders.exported', async ({ stamp }, { transaction }) => {
      // The publisher's write, not yet committed, is visible here: the same transaction.
      const [row] = await q<{ recipient_number: string }>('SELECT recipient_number FROM orders WHERE id = :id', { id: order.id }, transaction)
      seen.push(`second ${stamp} ${await txid(transaction)} ${row!.recipient_number}`)
    })
    const publisherTx = await app().db.sequelize.transaction(async (t) => {
      await q(`UPDATE orders SET recipient_number = '0209999999' WHERE id = :id RETURNING id`, { id: order.id }, t)
      await events.publish('orders.exported', { stamp: 's1' }, { transaction: t })
      return txid(t)
    })
    expect(seen).to.deep.equal([`first s1 ${publisherTx}`, `second s1 ${publisherTx} 0209999999`])
  })

  it("a handler's throw rolls back everything the publisher did in that transaction, and later handlers never run", async () => {
    const events = createDomainEvents()
    const order = await createOrder({ paymentStatus: 'SUCCESS' })
    const ran: string[] = []
    events.on('order.moneyReturned', async ({ orderId }, { transaction }) => {
      await q(`UPDATE orders SET payment_status = 'REFUNDED' WHERE id = :id RETURNING id`, { id: orderId }, transaction)
      ran.push('first')
    })
    events.on('order.moneyReturned', async () => {
      ran.push('second')
      throw new Error('the subscriber refused')
    })
    events.on('order.moneyReturned', async () => void ran.push('third'))
    const err = await rejection(
      app().db.sequelize.transaction(async (t) => {
        await q(`UPDATE orders SET recipient_number = '0209999999' WHERE id = :id RETURNING id`, { id: order.id }, t)
        await events.publish('order.moneyReturned', { orderId: order.id as number, why: 'refund' }, { transaction: t })
      })
    )
    expect(err.message).to.equal('the subscriber refused')
    expect(ran).to.deep.equal(['first', 'second'])
    const [row] = await q('SELECT payment_status, recipient_number FROM orders WHERE id = :id', { id: order.id })
    expect(row).to.deep.equal({ payment_status: 'SUCCESS', recipient_number: '0241234567' })
  })

  it('a scoped subscriber hears only what its scope covers, an unscoped one everything; ending a subscription stops it', async () => {
    const bus = createEventBus<{ tick: { n: number } }, { tick: { even: boolean } }>()
    const heard: string[] = []
    bus.on('tick', async ({ n }) => void heard.push(`all ${n}`))
    const off = bus.on('tick', async ({ n }) => void heard.push(`even ${n}`), { even: true })
    expect(bus.scopes('tick')).to.deep.equal([{}, { even: true }])
    await app().db.sequelize.transaction(async (t) => {
      for (const n of [1, 2]) await bus.publish('tick', { n }, { transaction: t }, (s) => s.even === (n % 2 === 0))
      off()
      await bus.publish('tick', { n: 4 }, { transaction: t }, (s) => s.even)
    })
    expect(heard).to.deep.equal(['all 1', 'all 2', 'even 2', 'all 4'])
    // Checked by the type check, never run: the payload is typed per event, and an event with scopes
    // needs the publisher's test of them.
    const typed = (t: Transaction) => {
      // @ts-expect-error no such field in the payload
      bus.on('tick', async ({ missing }) => void missing)
      // @ts-expect-error the scope test is missing
      return bus.publish('tick', { n: 1 }, { transaction: t })
    }
    expect(typed).to.be.a('function')
  })

  it('an event published outside a transaction is refused before any handler runs', async () => {
    const events = createDomainEvents()
    let ran = false
    events.on('orders.exported', async () => void (ran = true))
    const err = await rejection(events.publish('orders.exported', { stamp: 'x' }, { transaction: undefined as unknown as Transaction }))
    expect(err.message).to.equal('event orders.exported published outside a transaction')
    expect(ran).to.equal(false)
  })

  it("the app's own publishers: a delivery subscriber that throws undoes the admin's 'mark delivered' with its audit entry", async () => {
    const order = await createOrder({ paymentStatus: 'SUCCESS' })
    const off = app().services.events.on(
      'delivery.changed',
      async () => {
        throw new Error('subscriber down')
      },
      { to: ['MANUAL'] }
    )
    try {
      const admin = await adminClient()
      const res = await admin.patch(`/api/orders/${order.id}/delivered`)
      expect(res.status).to.equal(500)
      const [row] = await q('SELECT delivery_status, delivered FROM orders_view WHERE id = :id', { id: order.id })
      expect(row).to.deep.equal({ delivery_status: 'NOT_STARTED', delivered: false })
      expect(await q(`SELECT id FROM audit_logs WHERE action = 'ORDER_DELIVERED' AND resource_id = :id`, { id: String(order.id) })).to.have.length(0)
    } finally {
      off()
    }
    const admin = await adminClient()
    expect((await admin.patch(`/api/orders/${order.id}/delivered`)).status).to.equal(200)
    const [row] = await q('SELECT delivery_status FROM orders_view WHERE id = :id', { id: order.id })
    expect(row!.delivery_status).to.equal('MANUAL')
  })
})
