import type { Config } from 'vike/types'

export default { title: 'Tiers' } satisfies Config
