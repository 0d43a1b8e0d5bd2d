import type { Config } from 'vike/types'

export default { title: 'Complete Registration Payment' } satisfies Config
