import { renderToStream } from 'react-streaming/server'
import { dangerouslySkipEscape, escapeInject } from 'vike/server'
import type { OnRenderHtmlAsync } from 'vike/types'
import { Root } from './Root.tsx'
import { THEME_SCRIPT } from './theme.ts'

export const onRenderHtml: OnRenderHtmlAsync = async (pageContext) => {
  const { Page } = pageContext
  const stream = await renderToStream(<Root pageContext={pageContext}>{Page ? <Page /> : null}</Root>, {
    userAgent: pageContext.headersOriginal ? String((pageContext.headersOriginal as Record<string, unknown>)['user-agent'] ?? '') : undefined,
  })
  const siteName = pageContext.settings?.siteName || 'Data Hub'
  const title = pageContext.config.title ? `${pageContext.config.title} | ${siteName}` : siteName
  const nonce = pageContext.cspNonce ?? ''
  return escapeInject`<!DOCTYPE html>
<html lang="en-GH">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="light dark" />
    <meta name="description" content="Buy MTN, Telecel and AirtelTigo data bundles in Ghana with mobile money or card." />
    <title>${title}</title>
    <link rel="icon" href="data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 viewBox=%220 0 16 16%22%3E%3Crect width=%2216%22 height=%2216%22 rx=%223%22 fill=%22%23ffd700%22/%3E%3C/svg%3E" />
    <script nonce="${nonce}">${dangerouslySkipEscape(THEME_SCRIPT)}</script>
  </head>
  <body>
    <div id="root">${stream}</div>
  </body>
</html>`
}
