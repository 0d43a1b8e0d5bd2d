import type { Request, Response } from 'express'
import type { Actor } from '../services/context.ts'
import type { Services } from '../services/index.ts'
import { catchUpOf } from './catch-up.ts'
import { createPageCache, type RenderedPage } from './page-cache.ts'

/**
 * The agent dashboard and the admin overview, kept rendered per session (ADR 0048). Their data is kept per agent
 * and once for all admins by the page-data service; the HTML also carries the user, the CSRF token and the nonce.
 * The key is the session, so the token and the user in the page are that session's own; the nonce is swapped per
 * response as on visitors' pages (ADR 0019). An entry is dropped with the page data it shows, on every instance.
 */

/** At most this many pages are kept, all sessions together (~20 KB each with its gzip); the least recently used go first. */
const MAX_ENTRIES = 500
/** Bounds what no notice follows (the clock), as for the page data. */
const MAX_AGE_MS = 60_000

/** The page-data key a signed-in page shows, or null for a page that is rendered every time. */
function keptPageTag(path: string, user: Actor): string | null {
  if (path === '/agent/dashboard' && user.role === 'AGENT' && user.agent) return `agent:${user.agent.id}`
  if (path === '/admin/overview' && user.role === 'ADMIN') return 'overview'
  return null
}

/**
 * The one request header the portal pages render from besides the session: the sidebar's open or closed state,
 * a cookie the browser writes (renderer/layouts/PortalLayout.tsx, `sidebar_state`). It joins the key.
 */
const sidebarState = (cookie: string | undefined) => /(?:^|;\s*)sidebar_state=(true|false)/.exec(cookie ?? '')?.[1] ?? ''

export function signedInPageCache(services: Services) {
  const cache = createPageCache(
    {
      version: () => `${services.settings.version()}.${services.packages.version()}`,
      // Every signed-in page is rendered by the caller's own render (it knows the session).
      render: async () => ({ status: 500, headers: [], body: '', noStore: true })
    },
    { maxAgeMs: MAX_AGE_MS, maxEntries: MAX_ENTRIES }
  )
  services.settings.onChange(() => cache.clear())
  services.packages.onChange(() => cache.clear())
  services.pageData.onChange((what) => {
    if (what === 'all') cache.clear()
    else cache.drop(what === 'agents' ? undefined : what)
  })

  return {
    /**
     * Answers a kept page when `req` asks for one and this instance has heard every earlier write; false
     * when the caller must render as usual. `render(nonce)` renders the page for this request's session.
     */
    async answer(req: Request, res: Response, user: Actor, nonce: string, render: (nonce: string, tag: string) => Promise<RenderedPage>): Promise<boolean> {
      const tag = keptPageTag(req.path, user)
      if (!tag || !req.session?.userId || req.headers.authorization || !(await (catchUpOf(req) ?? services.pageData.fresh()))) return false
      // A page is shown no longer than the data it was rendered from (the overview's lives a few seconds).
      if (!services.pageData.isKept(tag)) cache.drop(tag)
      const { page, hit } = await cache.get(req.originalUrl, `${req.sessionID}\n${user.id}\n${sidebarState(req.headers.cookie)}`, (n) => render(n, tag))
      res.setHeader('Cache-Control', 'no-store')
      const gzip = !!req.headers['accept-encoding'] && req.acceptsEncodings('gzip', 'identity') === 'gzip'
      cache.send(res, page, nonce, hit, gzip)
      return true
    }
  }
}
