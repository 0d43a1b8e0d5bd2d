import { redirect } from 'vike/abort'
import type { GuardAsync } from 'vike/types'
import { redirectFor } from '../renderer/access.ts'

// One guard for every page: login, role and the maintenance switch (renderer/access.ts).
export const guard: GuardAsync = async (pageContext) => {
  const to = redirectFor(pageContext.urlPathname, pageContext.user, pageContext.settings?.platformOpen !== false)
  if (to && to !== pageContext.urlPathname) throw redirect(to)
}
