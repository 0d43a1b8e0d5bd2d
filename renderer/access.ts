/**
 * Who may open which path: used by the server-side guard (the rule) and by the shell (what to show).
 * Spec section 2 (Route table, navigation guard) and section 6.
 */
export type RoleName = 'PUBLIC' | 'AGENT' | 'ADMIN'

export const homeFor = (role?: RoleName | null) => (role === 'ADMIN' ? '/admin/overview' : role === 'AGENT' ? '/agent/dashboard' : '/')

const isAgentPortal = (path: string) => path.startsWith('/agent/') && path !== '/agent/register'

/** Admin pages, the login page and password recovery stay open while the platform is closed; the rest show maintenance. */
export function isMaintenanceExempt(path: string, _role?: RoleName | null): boolean {
  return path === '/login' || path === '/forgot' || path === '/reset' || path === '/admin' || path.startsWith('/admin/')
}

/** Where to send this request instead, or null when it may proceed. */
export function redirectFor(path: string, user: { role: RoleName } | null, platformOpen: boolean): string | null {
  const p = path.length > 1 ? path.replace(/\/+$/, '') : path
  if (!platformOpen && p !== '/' && !isMaintenanceExempt(p) && user?.role !== 'ADMIN') return '/'
  if (p.startsWith('/admin')) {
    if (!user) return '/login'
    if (user.role !== 'ADMIN') return homeFor(user.role)
  }
  if (isAgentPortal(p)) {
    if (!user) return '/login'
    if (user.role !== 'AGENT') return homeFor(user.role)
  }
  return null
}
