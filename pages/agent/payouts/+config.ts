import type { Config } from 'vike/types'

export default { title: 'Payouts' } satisfies Config
