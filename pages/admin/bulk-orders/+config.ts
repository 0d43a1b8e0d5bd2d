import type { Config } from 'vike/types'

export default { title: 'Bulk Orders' } satisfies Config
