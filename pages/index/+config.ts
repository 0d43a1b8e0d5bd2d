import type { Config } from 'vike/types'

export default { title: 'Home' } satisfies Config
