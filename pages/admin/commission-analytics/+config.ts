import type { Config } from 'vike/types'

export default { title: 'Commission Analytics' } satisfies Config
