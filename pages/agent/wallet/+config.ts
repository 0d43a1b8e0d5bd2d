import type { Config } from 'vike/types'

export default { title: 'Wallet' } satisfies Config
