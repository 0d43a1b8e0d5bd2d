import { redirect } from 'vike/abort'
import type { GuardAsync } from 'vike/types'
import { homeFor, redirectFor } from '../../renderer/access.ts'

// The global rules first (this guard replaces pages/+guard.ts here), then: development, or admins.
export const guard: GuardAsync = async (pageContext) => {
  const { user } = pageContext
  const to = redirectFor(pageContext.urlPathname, user, pageContext.settings?.platformOpen !== false)
  if (to && to !== pageContext.urlPathname) throw redirect(to)
  const dev = pageContext.services?.deps.env.NODE_ENV === 'development'
  if (!dev && user?.role !== 'ADMIN') throw redirect(user ? homeFor(user.role) : '/login')
}
