import type { Config } from 'vike/types'

export default {
  passToClient: ['user', 'settings', 'csrfToken', 'urlPathname'],
  meta: {
    title: { env: { server: true, client: true } },
    /** The page's meta description (search results); the shop's own when a page has none. */
    description: { env: { server: true } },
  },
  // Every navigation is a server render: guards run on the server only and never drift from a client copy.
  clientRouting: false,
} satisfies Config
