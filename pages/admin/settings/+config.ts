import type { Config } from 'vike/types'

export default { title: 'Settings' } satisfies Config
