import type { Config } from 'vike/types'

export default { title: 'Package Pricing' } satisfies Config
