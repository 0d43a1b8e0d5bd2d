import { expect } from 'chai'
import pg from 'pg'
import { CopyRows } from '../../server/lib/copy-rows.ts'
import { app } from '../helpers/server.ts'

// CopyRows: COPY ... TO STDOUT read straight off the connection, each CopyData message one row made CRLF.
async function withClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: app().db.url })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

async function read(copy: CopyRows, sizes: number[] = []): Promise<string> {
  const parts: Buffer[] = []
  for await (const chunk of copy as AsyncIterable<Buffer>) {
    sizes.push(chunk.length)
    parts.push(chunk)
  }
  return Buffer.concat(parts).toString()
}

describe('CopyRows: a COPY to STDOUT as CRLF rows', () => {
  before(() => app())

  it('ends each row with CRLF and counts it; line breaks, CR and quotes inside quoted fields stay; rows longer than a socket read', async () => {
    await withClient(async (client) => {
      const long = 'x'.repeat(300_000)
      const copy = client.query(
        new CopyRows(
          `COPY (SELECT * FROM (VALUES (1, E'Ama "A"\\nMensah'), (2, E'a\\r\\nb'), (3, '${long}'), (4, '')) v(n, t) ORDER BY n) TO STDOUT WITH (FORMAT csv, FORCE_QUOTE (t))`
        )
      )
      const sizes: number[] = []
      const text = await read(copy, sizes)
      await copy.done
      expect(text).to.equal(`1,"Ama ""A""\nMensah"\r\n2,"a\r\nb"\r\n3,"${long}"\r\n4,""\r\n`)
      expect(copy.rows).to.equal(4)
      // The long row came in several socket reads, each passed on as it came.
      expect(sizes.length).to.be.above(1)
      // The connection is node-postgres's again.
      expect((await client.query('SELECT 41 + 1 AS n')).rows).to.deep.equal([{ n: 42 }])
    })
  })

  it('a statement that fails midway fails the stream; one that fails after its last row rejects `done`; the connection stays usable', async () => {
    await withClient(async (client) => {
      const midway = client.query(new CopyRows('COPY (SELECT 10 / (3 - g) FROM generate_series(1, 5) g) TO STDOUT'))
      const err = await read(midway).then(
        () => undefined,
        (e: { code?: string }) => e
      )
      expect(err?.code).to.equal('22012') // division by zero
      await midway.done.then(
        () => expect.fail('done resolved'),
        (e: { code?: string }) => expect(e.code).to.equal('22012')
      )

      // A data-modifying CTE runs at the end of the statement, after every row was sent (the export's marking).
      await client.query('BEGIN')
      await client.query('CREATE TEMP TABLE once (id int PRIMARY KEY) ON COMMIT DROP')
      const after = client.query(new CopyRows('COPY (WITH twice AS (INSERT INTO once VALUES (1), (1)) SELECT g FROM generate_series(1, 3) g) TO STDOUT'))
      const text = await read(after).catch(() => '')
      const late = await after.done.then(
        () => undefined,
        (e: { code?: string }) => e
      )
      expect(late?.code).to.equal('23505')
      expect(text === '' || text === '1\r\n2\r\n3\r\n', text).to.equal(true)
      await client.query('ROLLBACK')
      expect((await client.query('SELECT 1 AS n')).rows).to.deep.equal([{ n: 1 }])
    })
  })

  it('reads the socket only as fast as it is read: a paused reader holds PostgreSQL back, and every row arrives', async () => {
    await withClient(async (client) => {
      const copy = client.query(new CopyRows(`COPY (SELECT g, repeat('y', 200) FROM generate_series(1, 20000) g) TO STDOUT WITH (FORMAT csv)`))
      let lines = 0
      let held = false
      for await (const chunk of copy as AsyncIterable<Buffer>) {
        if (!held) {
          held = true
          // Waiting here fills the stream's buffer and then the socket's: nothing is lost meanwhile.
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
        for (const b of chunk) if (b === 0x0a) lines++
      }
      await copy.done
      expect(lines).to.equal(20000)
      expect(copy.rows).to.equal(20000)
    })
  })
})
