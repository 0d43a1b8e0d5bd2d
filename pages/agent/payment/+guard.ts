import { redirect } from 'vike/abort'
import type { GuardAsync } from 'vike/types'
import { guard as globalGuard } from '../../+guard.ts'
import { isActiveAgent } from '../../../renderer/format.ts'

// A page's +guard replaces the global one, so that one runs first. Spec section 6: the Payment
// page is only for agents still unapproved or unpaid; an active agent goes to the dashboard.
export const guard: GuardAsync = async (pageContext) => {
  await globalGuard(pageContext)
  if (isActiveAgent(pageContext.user?.agent)) throw redirect('/agent/dashboard')
}
