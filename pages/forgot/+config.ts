import type { Config } from 'vike/types'

export default { title: 'Forgot your password?' } satisfies Config
