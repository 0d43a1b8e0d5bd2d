import type { Config } from 'vike/types'

export default { title: 'Send Message' } satisfies Config
