import { renderToStream } from 'react-streaming/server'
import { dangerouslySkipEscape, escapeInject } from 'vike/server'
import type { OnRenderHtmlAsync } from 'vike/types'
import { Root } from './Root.tsx'
import { THEME_SCRIPT } from './theme.ts'

const DEFAULT_DESCRIPTION = 'Buy MTN, Telecel and AirtelTigo data bundles in Ghana with mobile money or card.'

export const onRenderHtml: OnRenderHtmlAsync = async (pageContext) => {
  const { Page } = pageContext
  const stream = await renderToStream(<Root pageContext={pageContext}>{Page ? <Page /> : null}</Root>, {
    userAgent: pageContext.headersOriginal ? String((pageContext.headersOriginal as Record<string, unknown>)['user-agent'] ?? '') : undefined,
  })
  const siteName = pageContext.settings?.siteName || 'Data Hub'
  const title = pageContext.config.title ? `${pageContext.config.title} | ${siteName}` : siteName
  const nonce = pageContext.cspNonce ?? ''
  const description = pageContext.config.description || DEFAULT_DESCRIPTION
  return escapeInject`<!DOCTYPE html>
<html lang="en-GH">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="light dark" />
    <meta name="description" content="${description}" />
    <title>${title}</title>
    <meta name="theme-color" content="#ffd700" media="(prefers-color-scheme: light)" />
    <meta name="theme-color" content="#14161a" media="(prefers-color-scheme: dark)" />
    <link rel="icon" href="/icons/icon.svg" type="image/svg+xml" />
    <link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />
    <link rel="manifest" href="/manifest.webmanifest" />
    <script nonce="${nonce}">${dangerouslySkipEscape(THEME_SCRIPT)}</script>
  </head>
  <body>
    <div id="root">${stream}</div>
  </body>
</html>`
}
