import type { Request, Response } from 'express'
import { CsvStream, writeWithBackpressure, type CsvColumn } from '../lib/csv.ts'

export const today = () => new Date().toISOString().slice(0, 10)

function attachment(res: Response, filename: string, type: string) {
  res.status(200)
  res.setHeader('Content-Type', type)
  res.setHeader('Content-Disposition', `attachment; filename="${filename}"`)
  res.setHeader('Cache-Control', 'no-store')
}

/** Streams rows as CSV in batches; memory stays flat however many rows the generator yields. */
export async function sendCsv<Row>(req: Request, res: Response, filename: string, columns: CsvColumn<Row>[], rows: AsyncIterable<Row> | Iterable<Row>) {
  attachment(res, filename, 'text/csv; charset=utf-8')
  const csv = new CsvStream(res, columns)
  try {
    let batch: Row[] = []
    for await (const r of rows) {
      batch.push(r)
      if (batch.length >= 500) {
        await csv.writeRows(batch)
        batch = []
      }
    }
    await csv.writeRows(batch)
    res.end()
  } catch (err) {
    // Headers are gone already: all that is left is to cut the download short.
    req.log?.warn({ err }, 'CSV export stopped')
    res.destroy()
  }
}

/** Streams a JSON array, one element at a time. */
export async function sendJsonArray<Row>(req: Request, res: Response, filename: string, rows: AsyncIterable<Row>) {
  attachment(res, filename, 'application/json; charset=utf-8')
  const write = (chunk: string) => writeWithBackpressure(res, chunk)
  try {
    let first = true
    let buf = '['
    for await (const r of rows) {
      buf += (first ? '\n' : ',\n') + JSON.stringify(r)
      first = false
      if (buf.length > 64 * 1024) {
        await write(buf)
        buf = ''
      }
    }
    await write(`${buf}${first ? '' : '\n'}]\n`)
    res.end()
  } catch (err) {
    req.log?.warn({ err }, 'JSON export stopped')
    res.destroy()
  }
}
