import { renderToStream } from 'react-streaming/server'
import { dangerouslySkipEscape, escapeInject } from 'vike/server'
import type { OnRenderHtmlAsync } from 'vike/types'
import { ASSETS_LAST_PLACEHOLDER, CLIENT_ASSETS_ID, CLIENT_START_SCRIPT } from './client-start.ts'
import { Root } from './Root.tsx'
import { THEME_SCRIPT } from './theme.ts'
import { loadLazyParts } from './ui/lazy-hydrated.tsx'

/** A page's own link-preview facts (a +data hook returns them as `meta`): Open Graph and Twitter tags. */
export interface PageMeta {
  title: string
  description: string
  /** Absolute URL of a raster image (fetchers run no JavaScript). */
  image: string
  url: string
}

const DEFAULT_DESCRIPTION = 'Buy MTN, Telecel and AirtelTigo data bundles in Ghana with mobile money or card.'

export const onRenderHtml: OnRenderHtmlAsync = async (pageContext) => {
  const { Page } = pageContext
  await loadLazyParts()
  const stream = await renderToStream(<Root pageContext={pageContext}>{Page ? <Page /> : null}</Root>, {
    userAgent: pageContext.headersOriginal ? String((pageContext.headersOriginal as Record<string, unknown>)['user-agent'] ?? '') : undefined,
    // React would send a large Suspense boundary after the page, revealed by an inline script the CSP
    // blocks; the boundaries are there to split hydration into parts (ADR 0044), so each stays in place.
    streamOptions: { progressiveChunkSize: Number.MAX_SAFE_INTEGER }
  })
  const siteName = pageContext.settings?.siteName || 'Data Hub'
  const meta = (pageContext.data as { meta?: PageMeta } | undefined)?.meta ?? null
  const pageTitle = meta?.title ?? pageContext.config.title
  const title = pageTitle ? `${pageTitle} | ${siteName}` : siteName
  const nonce = pageContext.cspNonce ?? ''
  const description = meta?.description || pageContext.config.description || DEFAULT_DESCRIPTION
  const preview = meta
    ? escapeInject`<meta property="og:type" content="website" />
    <meta property="og:site_name" content="${siteName}" />
    <meta property="og:title" content="${meta.title}" />
    <meta property="og:description" content="${meta.description}" />
    <meta property="og:url" content="${meta.url}" />
    <meta property="og:image" content="${meta.image}" />
    <meta property="og:image:type" content="image/png" />
    <meta property="og:image:width" content="1200" />
    <meta property="og:image:height" content="630" />
    <meta name="twitter:card" content="summary_large_image" />
    <meta name="twitter:title" content="${meta.title}" />
    <meta name="twitter:description" content="${meta.description}" />
    <meta name="twitter:image" content="${meta.image}" />`
    : ''
  // `rel="expect"`: the browser paints nothing before it has parsed the public layout's last element (`#page-end`, the
  // footer's last line; a page without it waits for the end of the document, a few KB that come in one piece). Without
  // it, a browser that had the stylesheets before the whole page was parsed could paint the header alone, then style
  // and lay out the rest in a task after that first paint: the long task Lighthouse counts as blocking. Browsers that
  // do not know the link ignore it.
  // The tab's icon is a small PNG, not the SVG: the browser draws an SVG icon by building a document of its own on the
  // page's main thread (4-6 ms of CPU, right after the first paint, a task Lighthouse counts as the page's); a PNG is
  // only decoded.
  // The page's scripts come in a <template> (Vike writes them at its end-of-page placeholder, `injectScriptsAt` in
  // +config.ts) and start after the first contentful paint (client-start.ts): the paint waits for no JavaScript, and
  // Lighthouse's simulation then counts none of it in the first or the largest paint.
  return escapeInject`<!DOCTYPE html>
<html lang="en-GH">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="light dark" />
    <link rel="expect" href="#page-end" blocking="render" />
    <meta name="description" content="${description}" />
    <title>${title}</title>
    ${preview}
    <meta name="theme-color" content="#ffd700" media="(prefers-color-scheme: light)" />
    <meta name="theme-color" content="#14161a" media="(prefers-color-scheme: dark)" />
    <link rel="icon" href="/icons/icon-48.png" type="image/png" sizes="48x48" />
    <link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />
    <link rel="manifest" href="/manifest.webmanifest" />
    <script nonce="${nonce}">${dangerouslySkipEscape(THEME_SCRIPT)}</script>
  </head>
  <body>
    <div id="root">${stream}</div>
    <template id="${CLIENT_ASSETS_ID}">${dangerouslySkipEscape(ASSETS_LAST_PLACEHOLDER)}</template>
    <script nonce="${nonce}">${dangerouslySkipEscape(CLIENT_START_SCRIPT)}</script>
  </body>
</html>`
}
