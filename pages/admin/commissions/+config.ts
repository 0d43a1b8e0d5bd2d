import type { Config } from 'vike/types'

export default { title: 'Commissions' } satisfies Config
