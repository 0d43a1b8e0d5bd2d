import type { Config } from 'vike/types'

export default { title: 'Delivery Simulator' } satisfies Config
