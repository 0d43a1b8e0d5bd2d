import { expect } from 'chai'
import type { Client } from './http.ts'

/** A checker product made by an admin through the API, with `stock` cards S0001.. / PIN 9000000001.. uploaded by paste. */
export async function checkerWithStock(admin: Client, stock: number, over: Record<string, unknown> = {}) {
  const made = await admin.post('/api/vouchers/admin/products', {
    name: 'BECE checker',
    howToUse: 'Check at',
    checkingUrl: 'https://eresults.waecgh.org',
    priceUser: 20,
    priceAgent: 18,
    lowStockThreshold: 10,
    ...over
  })
  expect(made.status, JSON.stringify(made.body)).to.equal(201)
  const productId = made.body.product.id as number
  if (stock > 0) {
    const lines = Array.from({ length: stock }, (_, i) => `S${String(i + 1).padStart(4, '0')},${9000000001 + i}`)
    const up = await admin.post('/api/vouchers/admin/stock', { productId, format: 'paste', content: lines.join('\n') })
    expect(up.status, JSON.stringify(up.body)).to.equal(201)
  }
  return productId
}
