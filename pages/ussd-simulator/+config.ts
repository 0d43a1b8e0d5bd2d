import type { Config } from 'vike/types'

export default { title: 'USSD Simulator' } satisfies Config
