import type { Config } from 'vike/types'

export default { title: 'AFA Registration' } satisfies Config
