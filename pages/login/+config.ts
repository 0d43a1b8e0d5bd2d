import type { Config } from 'vike/types'

export default { title: 'Sign In' } satisfies Config
