import type { Config } from 'vike/types'

export default { title: 'Agent Performance' } satisfies Config
