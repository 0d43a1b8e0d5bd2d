import type { Config } from 'vike/types'

export default { title: 'AFA Registrations' } satisfies Config
