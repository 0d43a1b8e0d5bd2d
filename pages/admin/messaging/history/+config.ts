import type { Config } from 'vike/types'

export default { title: 'Message History' } satisfies Config
