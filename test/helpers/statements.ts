import pg from 'pg'

/**
 * The statements the app's pg connections send while `fn` runs, in order (the pool's liveness probe
 * left out), and whether each went by name (prepared). Counts, never times.
 */
export async function statementsSent<T>(fn: () => Promise<T>): Promise<{ out: T; sent: string[]; named: string[] }> {
  const query = pg.Client.prototype.query
  const sent: string[] = []
  const named: string[] = []
  pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    const q = args[0] as string | { text?: string; name?: string }
    const text = (typeof q === 'string' ? q : (q?.text ?? '')).trim()
    if (text !== 'SELECT 1') {
      sent.push(text)
      if (typeof q === 'object' && q?.name) named.push(text)
    }
    return (query as (...a: unknown[]) => unknown).apply(this, args)
  } as typeof query
  try {
    return { out: await fn(), sent, named }
  } finally {
    pg.Client.prototype.query = query
  }
}
