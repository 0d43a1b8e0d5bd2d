import type { Config } from 'vike/types'

export default { title: 'Agent wallet' } satisfies Config
