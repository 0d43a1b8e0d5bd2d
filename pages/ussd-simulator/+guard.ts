import { redirect } from 'vike/abort'
import type { GuardAsync } from 'vike/types'
import { homeFor } from '../../renderer/access.ts'
import { guard as globalGuard } from '../+guard.ts'

// A page's +guard replaces the global one, so that one runs first; then: development, or admins.
export const guard: GuardAsync = async (pageContext) => {
  await globalGuard(pageContext)
  const { user } = pageContext
  const dev = pageContext.services?.deps.env.NODE_ENV === 'development'
  if (!dev && user?.role !== 'ADMIN') throw redirect(user ? homeFor(user.role) : '/login')
}
