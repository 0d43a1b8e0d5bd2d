import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { camelKeys } from '../../server/services/orders/queries.ts'
import type { Client } from '../helpers/http.ts'
import { resellerWithKey } from '../helpers/reseller.ts'
import { app, resetDb } from '../helpers/server.ts'

// A wallet order's checks at the edge give the answers they gave when each went through Joi on every request: a key
// the Idempotency-Key pattern takes is used as sent, any other is worded by its schema; an API order's errors are all
// collected (its schema's own setting), the first in the fields' order answered; a row's columns come back camelCase.
const order = (api: Client, body: unknown, headers: Record<string, string>) => api.post('/api/v1/orders', body, headers)
const orders = async () => Number((await app().db.sequelize.query<{ n: string }>('SELECT count(*) AS n FROM orders', { type: QueryTypes.SELECT }))[0]!.n)

describe('a wallet order checked at the edge', () => {
  beforeEach(resetDb)

  it("an Idempotency-Key the pattern takes is the order's key as sent, to its 255th character; any other is refused in the schema's words", async () => {
    const { pkg, api } = await resellerWithKey()
    const body = { packageId: pkg.id, recipientNumber: '0241234567' }
    const longest = `${'k'.repeat(250)}_.:-9`
    const placed = await order(api, body, { 'Idempotency-Key': longest })
    expect(placed.status, placed.text).to.equal(201)
    const [row] = await app().db.sequelize.query<{ key: string }>('SELECT key FROM idempotency_keys WHERE order_id = :id', {
      replacements: { id: placed.body.order.id },
      type: QueryTypes.SELECT
    })
    expect(row!.key).to.equal(longest)
    const again = await order(api, body, { 'Idempotency-Key': longest })
    expect([again.status, again.body.order.id, again.headers.get('idempotent-replayed')]).to.deep.equal([201, placed.body.order.id, 'true'])

    const refused = async (headers: Record<string, string>, message: string) => {
      const res = await order(api, body, headers)
      expect(res.status, res.text).to.equal(400)
      expect(res.body.error).to.equal(message)
    }
    await refused({}, 'Idempotency-Key header is required')
    await refused({ 'Idempotency-Key': '' }, 'Idempotency-Key header is required')
    await refused({ 'Idempotency-Key': `${longest}x` }, 'Idempotency-Key must be 1 to 255 letters, digits or _.:-')
    await refused({ 'Idempotency-Key': 'two words' }, 'Idempotency-Key must be 1 to 255 letters, digits or _.:-')
    await refused({ 'Idempotency-Key': 'slash/key' }, 'Idempotency-Key must be 1 to 255 letters, digits or _.:-')
    expect(await orders()).to.equal(1)
  })

  it("an API order's errors are all collected: a field it may not send is named first, else the first field's problem", async () => {
    const { pkg, api } = await resellerWithKey()
    const refused = async (body: unknown, message: string) => {
      const res = await order(api, body, { 'Idempotency-Key': `edge-${Math.random().toString(36).slice(2)}` })
      expect(res.status, res.text).to.equal(400)
      expect(res.body.error).to.equal(message)
    }
    // The unknown field comes last in the body and the other fields are wrong too: it is still the answer.
    await refused({ packageId: 'x', recipientNumber: '12', note: 'hi' }, 'note is not a field of an order')
    await refused({ packageId: pkg.id, recipientNumber: '0241234567', payFrom: 'gateway', note: 'hi' }, 'payFrom is not a field of an order')
    await refused({ packageId: pkg.id }, 'Enter recipient number')
    expect(await orders()).to.equal(0)
    // The same request without the extra field is placed.
    expect((await order(api, { packageId: pkg.id, recipientNumber: '0241234567' }, { 'Idempotency-Key': 'edge-ok' })).status).to.equal(201)
  })

  it('a row comes back with camelCase keys, the same on every call and for every column name', () => {
    const row = { id: 1, recipient_number: '0241234567', data_size_mb: 1024, shop_agent_price_pesewas: null, created_at: 'x', network: 'MTN' }
    const want = { id: 1, recipientNumber: '0241234567', dataSizeMb: 1024, shopAgentPricePesewas: null, createdAt: 'x', network: 'MTN' }
    expect(camelKeys(row)).to.deep.equal(want)
    expect(camelKeys(row)).to.deep.equal(want)
    expect(camelKeys({ recipient_number: '0201234567', amount_pesewas: 450 })).to.deep.equal({ recipientNumber: '0201234567', amountPesewas: 450 })
  })
})
