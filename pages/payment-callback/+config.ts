import type { Config } from 'vike/types'

export default { title: 'Payment' } satisfies Config
