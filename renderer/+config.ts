import type { Config } from 'vike/types'

export default {
  passToClient: ['user', 'settings', 'csrfToken', 'urlPathname', 'simulatedPayments'],
  meta: {
    title: { env: { server: true, client: true } },
  },
  // Every navigation is a server render: guards run on the server only and never drift from a client copy.
  clientRouting: false,
} satisfies Config
