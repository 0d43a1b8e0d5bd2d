import type { Config } from 'vike/types'

export default { title: 'Place Order' } satisfies Config
