import type { Config } from 'vike/types'

export default { title: 'Dashboard' } satisfies Config
