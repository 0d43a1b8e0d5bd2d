/** A pg connection as the runners here use it: pg's `Client.query` with a callback. */
export interface PgCallbackClient {
  query(q: string | { name: string; text: string; values: unknown[] }, done: (err: Error | null, res: PgResult) => void): void
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

/** `client.query(q)` as a promise, as pg's own promise form answers it (the result, or the error with its stack). */
export function send(client: PgCallbackClient, q: string | { name: string; text: string; values: unknown[] }): Promise<PgResult> {
  return new Promise<PgResult>((resolve, reject) => client.query(q, (err, res) => (err ? reject(err) : resolve(res)))).catch(withOwnStack)
}
