import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { Client } from './http.ts'
import { app } from './server.ts'

// The back office's API tests' steps: reads in SQL, a signed-in client, a download's bytes, many orders at once.
export const sql = <T extends object = any>(q: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(q, { replacements, type: QueryTypes.SELECT }) as unknown as Promise<T[]>

export async function loggedIn(user: { email: string; password: string }) {
  const c = new Client()
  const res = await c.login(user.email, user.password)
  expect(res.status).to.equal(200)
  return c
}

/** The raw bytes of a download (fetch's text() drops a BOM). */
export async function rawBytes(c: Client, path: string): Promise<Buffer> {
  const res = await fetch(c.base + path, {
    method: 'POST',
    headers: { Cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': c.csrf ?? '' }
  })
  return Buffer.from(await res.arrayBuffer())
}

/** Many orders at once, straight in SQL (factories are one row per call). */
export async function bulkOrders(n: number, over: { status?: string; exported?: boolean; delivered?: boolean } = {}) {
  await app().db.sequelize.query(
    `WITH o AS (INSERT INTO orders (recipient_number, network, data_size_mb, amount_pesewas, payment_status, payment_transaction_id, delivered, created_at)
       SELECT '024' || lpad(g::text, 7, '0'), 'MTN', 1024, 500, :status, 'bulk' || g, :delivered, now() - g * interval '1 second'
       FROM generate_series(1, :n) g RETURNING id)
     INSERT INTO order_exports (order_id, exported_at) SELECT id, now() FROM o WHERE :exported`,
    { replacements: { n, status: over.status ?? 'SUCCESS', exported: over.exported ?? false, delivered: over.delivered ?? false } }
  )
}
