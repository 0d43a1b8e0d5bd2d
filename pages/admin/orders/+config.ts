import type { Config } from 'vike/types'

export default { title: 'Active Orders' } satisfies Config
