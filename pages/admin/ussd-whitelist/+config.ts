import type { Config } from 'vike/types'

export default { title: 'USSD Whitelist' } satisfies Config
