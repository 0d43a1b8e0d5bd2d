import { expect } from 'chai'
import express from 'express'
import type { AddressInfo } from 'node:net'
import { CrlfRows } from '../../server/lib/csv-copy.ts'
import { writeWithBackpressure } from '../../server/lib/csv.ts'
import { compressResponses } from '../../server/http/middleware/compress.ts'

describe('CSV streaming helpers', () => {
  it('CrlfRows ends rows with CRLF and counts them, leaving line breaks inside quoted fields, across any chunk boundary', () => {
    // PostgreSQL's CSV: LF after each row; a quoted field may hold LF, CR and doubled quotes.
    const pg = '1,"Ama ""A""\nMensah",x\n2,"\t0241234567",\n3,"a\r\nb",""\n'
    const want = '1,"Ama ""A""\nMensah",x\r\n2,"\t0241234567",\r\n3,"a\r\nb",""\r\n'
    const bytes = Buffer.from(pg)
    for (let cut = 0; cut <= bytes.length; cut++) {
      for (const size of [1, 3, 7]) {
        const crlf = new CrlfRows()
        const parts = [bytes.subarray(0, cut), ...chunks(bytes.subarray(cut), size)]
        const out = Buffer.concat(parts.map((p) => crlf.convert(p))).toString()
        expect(out, `cut ${cut}, size ${size}`).to.equal(want)
        expect(crlf.rows).to.equal(3)
      }
    }
  })

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

function chunks(buf: Buffer, size: number): Buffer[] {
  const out: Buffer[] = []
  for (let i = 0; i < buf.length; i += size) out.push(buf.subarray(i, i + size))
  return out
}
