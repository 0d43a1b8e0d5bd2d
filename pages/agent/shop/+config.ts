import type { Config } from 'vike/types'

export default { title: 'My Shop' } satisfies Config
