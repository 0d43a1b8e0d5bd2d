import { Router, type Request } from 'express'
import type { Env } from '../env.ts'
import { publicOrigin } from '../lib/origin.ts'
import type { Services } from '../services/index.ts'

/** The pages a search engine may list: the shop's public pages. */
export const PUBLIC_PAGES = ['/', '/data-services', '/afa', '/agent/register', '/login']

/** Areas behind a login, the payment hand-offs and the simulators: nothing to index there. */
const DISALLOW = ['/admin', '/agent/', '/api/', '/simulator', '/ussd-simulator', '/payment-callback']

export const THEME_COLOR = { light: '#ffd700', dark: '#14161a' }

const origin = (env: Env, req: Request): string => publicOrigin(env.PUBLIC_URL, { protocol: req.protocol, host: req.get('host') })

/** robots.txt, sitemap.xml and the web app manifest, answered before the pages' catch-all. */
export function siteMetaRouter(services: Services): Router {
  const env = services.deps.env
  const r = Router()
  r.get('/robots.txt', (req, res) => {
    const lines = ['User-agent: *', ...DISALLOW.map((p) => `Disallow: ${p}`), 'Allow: /agent/register', '', `Sitemap: ${origin(env, req)}/sitemap.xml`, '']
    res.type('text/plain').set('Cache-Control', 'public, max-age=3600').send(lines.join('\n'))
  })
  r.get('/sitemap.xml', (req, res) => {
    const base = origin(env, req)
    const urls = PUBLIC_PAGES.map((p) => `  <url><loc>${base}${p === '/' ? '/' : p}</loc></url>`).join('\n')
    res
      .type('application/xml')
      .set('Cache-Control', 'public, max-age=3600')
      .send(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`)
  })
  r.get('/manifest.webmanifest', async (_req, res) => {
    const settings = await services.settings.get()
    const name = settings.siteName || 'Data Hub'
    res
      .type('application/manifest+json')
      .set('Cache-Control', 'public, max-age=3600')
      .send(
        JSON.stringify({
          name,
          short_name: name.slice(0, 12),
          description: 'Buy MTN, Telecel and AirtelTigo data bundles in Ghana with mobile money or card.',
          start_url: '/',
          scope: '/',
          display: 'standalone',
          background_color: '#ffffff',
          theme_color: THEME_COLOR.light,
          // PNGs only: the browser reads a manifest's icon on the page's main thread as it loads, and an SVG one costs
          // a document of its own there (the tab's icon is a PNG for the same reason, +onRenderHtml.tsx).
          icons: [
            { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
            { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
            { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' }
          ]
        })
      )
  })
  return r
}
