import type { Config } from 'vike/types'

export default { title: 'Payment Simulator: Checkout' } satisfies Config
