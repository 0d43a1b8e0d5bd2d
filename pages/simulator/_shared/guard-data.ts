import { render } from 'vike/abort'
import type { PageContextServer } from 'vike/types'

/** The simulator's pages exist only while it is the active provider; with Paystack configured they are 404. */
export function requireSimulator(pageContext: PageContextServer): { ttlSeconds: number; siteName: string } {
  const sim = pageContext.services?.simulator
  if (!sim?.active) throw render(404)
  return { ttlSeconds: sim.ttlSeconds, siteName: pageContext.settings?.siteName || 'Data Hub' }
}
