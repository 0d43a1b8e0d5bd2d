import type { Config } from 'vike/types'

export default { title: 'Bulk Order' } satisfies Config
