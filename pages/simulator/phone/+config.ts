import type { Config } from 'vike/types'

export default { title: 'Payment Simulator: Phone' } satisfies Config
