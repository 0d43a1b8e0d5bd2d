import { render } from 'vike/abort'
import type { PageContextServer } from 'vike/types'

/** Only while no WhatsApp account is configured: then the page plays the customer against the real bot. */
export function data(pageContext: PageContextServer) {
  if (!pageContext.services?.whatsapp.simulated) throw render(404)
  return { siteName: pageContext.settings?.siteName || 'Data Hub' }
}
