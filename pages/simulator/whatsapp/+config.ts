import type { Config } from 'vike/types'

export default { title: 'WhatsApp Simulator' } satisfies Config
