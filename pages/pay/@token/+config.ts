import type { Config } from 'vike/types'

export default { title: 'Pay for your order' } satisfies Config
