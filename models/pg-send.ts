import pg from 'pg'

/** A pg connection as the runners here use it: pg's `Client.query` with a query object (`pg.Query`) and a callback. */
export interface PgCallbackClient {
  query(q: pg.Query, done: (err: Error | null, res: PgResult) => void): unknown
}

export interface PgResult {
  rows: unknown[]
  rowCount: number | null
}

// pg's promise form puts on each query a callback whose closure holds the query itself: V8's scavenges then kept
// every query with its rows and field descriptions alive until the next full collection (ADR 0092), about 1.6 kB
// a statement. The callback form with a promise of our own leaves nothing of the query behind.
const withOwnStack = (err: Error): never => {
  // As pg's promise form: a stack that leads back to the caller, not to the socket's read.
  Error.captureStackTrace(err)
  throw err
}

type Settable = { name?: string; values?: unknown[] }

/**
 * `client.query(q)` as a promise, as pg's own promise form answers it (the result, or the error with its stack). The
 * query is made here from its text and given its name and values after: pg copies a config object into each query it
 * makes (every property through its descriptor), which the profile of a webhook-settled order put at several percent
 * of the app's busy time; a query passed in made is sent as it is.
 */
export function send(client: PgCallbackClient, q: string | { name: string; text: string; values: unknown[] }): Promise<PgResult> {
  return new Promise<PgResult>((resolve, reject) => {
    const query = new pg.Query(typeof q === 'string' ? q : q.text)
    const set = query as unknown as Settable
    if (typeof q !== 'string') {
      set.name = q.name
      set.values = q.values
    }
    client.query(query, (err, res) => (err ? reject(err) : resolve(res)))
  }).catch(withOwnStack)
}
