import type { Config } from 'vike/types'

export default { title: 'Audit Logs' } satisfies Config
