import { expect } from 'chai'
import { Client } from './http.ts'

/** What the visitors' page cache says of an answer: 'hit', 'miss', or null (not a cached path, or signed in). */
export const cacheState = (r: { headers: Headers }) => r.headers.get('x-page-cache')
export const cspNonce = (r: { headers: Headers }) => /'nonce-([\w-]+)'/.exec(r.headers.get('content-security-policy') ?? '')?.[1]
/** The nonces the page's own tags carry. */
export const pageNonces = (r: { text: string }) => new Set([...r.text.matchAll(/nonce="([^"]*)"/g)].map((m) => m[1]))
/** A page as a browser asks for it (the cache answers browsers; a bot's render is buffered anyway). */
export const page = (path: string, client = new Client()) => client.get(path, { Accept: 'text/html', 'User-Agent': 'Mozilla/5.0' })
export const pageAt = (base: string, path: string) => page(path, new Client(base))

/** Asks until `ok` holds, for at most 1 s: another instance hears of a change by NOTIFY, a moment after the writer's answer. */
export async function seenWithin1s(
  what: string,
  ask: () => Promise<{ status: number; text: string; headers: Headers }>,
  ok: (r: { status: number; text: string }) => boolean
) {
  const started = Date.now()
  let r = await ask()
  while (!ok(r) && Date.now() - started < 1000) {
    await new Promise((done) => setTimeout(done, 20))
    r = await ask()
  }
  expect(ok(r), `${what}: last answer ${r.status}`).to.equal(true)
  // The page's own lifetime (5 s) would have ended it much later.
  expect(Date.now() - started, what).to.be.lessThan(1000)
  return r
}
