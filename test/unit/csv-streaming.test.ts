import { expect } from 'chai'
import express from 'express'
import type { AddressInfo } from 'node:net'
import { writeWithBackpressure } from '../../server/lib/csv.ts'
import { compressResponses } from '../../server/http/middleware/compress.ts'

describe('CSV streaming helpers', () => {
  it('writeWithBackpressure through the compression middleware: one drain listener however many waits, every byte delivered', async () => {
    const warnings: string[] = []
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`)
    process.on('warning', onWarning)
    const chunk = Buffer.alloc(256 * 1024, 'row,"\t0241234567",MTN\r\n') // far over zlib's 16 KB buffer: every write waits
    const app = express()
    app.use(compressResponses())
    app.get('/big.csv', async (_req, res) => {
      res.setHeader('Content-Type', 'text/csv; charset=utf-8')
      for (let i = 0; i < 15; i++) await writeWithBackpressure(res, chunk)
      res.end()
    })
    const server = app.listen(0, '127.0.0.1')
    await new Promise((r) => server.once('listening', r))
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/big.csv`, { headers: { 'Accept-Encoding': 'gzip' } })
      expect(res.headers.get('content-encoding')).to.equal('gzip')
      expect((await res.arrayBuffer()).byteLength).to.equal(15 * chunk.length)
      await new Promise((r) => setImmediate(r)) // warnings are emitted on the next tick
      expect(warnings.filter((w) => w.includes('drain'))).to.deep.equal([])
    } finally {
      process.off('warning', onWarning)
      server.close()
    }
  })
})
