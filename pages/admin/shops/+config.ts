import type { Config } from 'vike/types'

export default { title: 'Shops' } satisfies Config
