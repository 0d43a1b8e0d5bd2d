import type { Config } from 'vike/types'

export default { title: 'Buy Data' } satisfies Config
