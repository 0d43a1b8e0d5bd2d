import type { Config } from 'vike/types'

export default { title: 'Reset your password' } satisfies Config
