import type { Config } from 'vike/types'

export default { description: 'Sign in to your Data Hub account.', title: 'Sign In' } satisfies Config
