import type { Config } from 'vike/types'

export default { title: 'Overview' } satisfies Config
