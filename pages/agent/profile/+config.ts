import type { Config } from 'vike/types'

export default { title: 'Profile' } satisfies Config
