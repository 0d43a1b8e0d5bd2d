import { expect } from 'chai'
import crypto from 'node:crypto'
import { IDS_PER_FILL, SESSION_ID_BYTES, sessionIds } from '../../server/http/middleware/session-ids.ts'

describe('session ids are drawn from a filled buffer of random bytes', () => {
  it('each id is 24 bytes of its own, base64url as express-session makes them, and the CSPRNG is asked once per 256 ids', () => {
    const fills: number[] = []
    const next = sessionIds((size) => {
      fills.push(size)
      return crypto.randomBytes(size)
    })
    const ids = Array.from({ length: 1000 }, next)
    expect(new Set(ids).size).to.equal(1000)
    for (const id of ids) {
      expect(id).to.match(/^[A-Za-z0-9_-]{32}$/)
      expect(Buffer.from(id, 'base64url').length).to.equal(SESSION_ID_BYTES)
    }
    expect(fills).to.deep.equal(Array(Math.ceil(1000 / IDS_PER_FILL)).fill(SESSION_ID_BYTES * IDS_PER_FILL))
  })

  it('no byte of the buffer is handed out twice: consecutive ids are consecutive slices of one fill', () => {
    const bytes = crypto.randomBytes(SESSION_ID_BYTES * IDS_PER_FILL)
    const next = sessionIds(() => bytes)
    for (let i = 0; i < IDS_PER_FILL; i++) expect(next()).to.equal(bytes.subarray(i * SESSION_ID_BYTES, (i + 1) * SESSION_ID_BYTES).toString('base64url'))
  })
})
