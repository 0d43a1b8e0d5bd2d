import type { Config } from 'vike/types'

export default { title: 'Reseller API' } satisfies Config
