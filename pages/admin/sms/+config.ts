import type { Config } from 'vike/types'

export default { title: 'SMS Messages' } satisfies Config
