import { render } from 'vike/abort'
import type { PageContextServer } from 'vike/types'

/** The simulator's pages exist only while it is the active provider; with Paystack configured they are 404. */
export function requireSimulator(pageContext: PageContextServer): { ttlSeconds: number; siteName: string; phone: string; reference: string } {
  const sim = pageContext.services?.simulator
  if (!sim?.active) throw render(404)
  // The query is read here, on the server, so the first render and hydration see the same values.
  const q = pageContext.urlParsed.search
  return {
    ttlSeconds: sim.ttlSeconds,
    siteName: pageContext.settings?.siteName || 'Data Hub',
    phone: String(q.phone ?? '')
      .replace(/\D/g, '')
      .slice(0, 12),
    reference: String(q.reference ?? '').slice(0, 64)
  }
}
