import type { Config } from 'vike/types'

export default { title: 'SMS Outbox' } satisfies Config
