import type { Config } from 'vike/types'

export default { title: 'My Orders' } satisfies Config
