import type { Config } from 'vike/types'

export default { title: 'Users' } satisfies Config
