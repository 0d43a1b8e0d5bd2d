import type { Config } from 'vike/types'

export default {
  passToClient: ['user', 'settings', 'csrfToken', 'urlPathname', 'simulatedPayments'],
  meta: {
    title: { env: { server: true, client: true } },
    /** The page's meta description (search results); the shop's own when a page has none. */
    description: { env: { server: true } },
    /**
     * Which layout's stylesheet a page loads: a +styles.ts file imports it, so Vite links that CSS
     * only for the pages under its folder (public pages never download the portals' CSS).
     */
    styles: { env: { server: true, client: true } },
    /**
     * The shell around a page: a +Layout.ts file names it per folder, so a page's client code holds only
     * its own shell (a visitor's first load never carries the portals' sidebar and links).
     */
    Layout: { env: { server: true, client: true } }
  },
  // The scripts at the end of the page, where onRenderHtml puts Vike's placeholder inside an inert <template>: they are
  // fetched only once the page has been painted (renderer/client-start.ts). Streamed pages would otherwise get them in
  // the stream, inside the root.
  injectScriptsAt: 'HTML_END',
  // Every navigation is a server render: guards run on the server only and never drift from a client copy.
  clientRouting: false
} satisfies Config
