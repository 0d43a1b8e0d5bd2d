import type { Config } from 'vike/types'

export default { title: 'Agents' } satisfies Config
