import type { Config } from 'vike/types'

export default { title: 'Sub-agents' } satisfies Config
