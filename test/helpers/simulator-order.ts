import { expect } from 'chai'
import { createPackage } from './factories.ts'
import { Client } from './http.ts'
import { app } from './server.ts'

/** A 5 GHS MTN 1 GB order paid through the payment simulator: its id and its payment's reference. */
export async function paidSimulatorOrder(payerPhone = '0241234567') {
  const packageId = (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number
  const placed = await new Client().post('/api/orders', { packageId, recipientNumber: '0201112222', payerPhone, payerNetwork: 'MTN' })
  expect(placed.status, placed.text).to.equal(201)
  const tid = placed.body.payment.transactionId as string
  expect((await new Client().post(`/api/simulator/payments/${tid}/approve`)).body.paymentStatus).to.equal('SUCCESS')
  return { id: placed.body.order.id as number, tid }
}

/** A visitor's 4.50 GHS order waiting for the payer (the simulator's prompt sent): its id and its payment's reference. */
export async function pendingSimulatorOrder() {
  const pkg = await createPackage({ priceUserPesewas: 450 })
  const res = await new Client().post('/api/orders', { packageId: pkg.id, recipientNumber: '0241112233', payerPhone: '0241234567', payerNetwork: 'MTN' })
  expect(res.status, res.text).to.equal(201)
  return { id: res.body.id as number, tid: res.body.payment.transactionId as string }
}
