import type { Config } from 'vike/types'

export default { title: 'Become an Agent' } satisfies Config
