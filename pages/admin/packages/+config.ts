import type { Config } from 'vike/types'

export default { title: 'Packages' } satisfies Config
