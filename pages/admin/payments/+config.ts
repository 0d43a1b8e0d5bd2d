import type { Config } from 'vike/types'

export default { title: 'Payments needing attention' } satisfies Config
