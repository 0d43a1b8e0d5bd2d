import { useCallback, useEffect, useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { usePageContext } from '../../../renderer/usePageContext.tsx'
import type { AdminUser, Pagination } from '../../../server/services/auth/users-admin.ts'
import { Pager } from '../../../renderer/ui/Pager.tsx'
import { RoleMenu } from './RoleMenu.tsx'
import { SendPasswordReset } from '../_recovery/SendPasswordReset.tsx'
import './users.css'

const LIMIT = 20

function RoleBadge({ user }: { user: AdminUser }) {
  if (user.role === 'ADMIN') return <span className="tag is-danger is-light">Admin</span>
  if (user.role === 'AGENT' || user.agent) return <span className="tag is-info is-light">Agent</span>
  return <span className="tag">Customer</span>
}

/** Approved (green), awaiting approval after paying (yellow), fee not paid yet (red). */
function AgentBadge({ agent }: { agent: NonNullable<AdminUser['agent']> }) {
  if (agent.approved) return <span className="tag is-success">Approved</span>
  if (agent.paymentStatus !== 'SUCCESS') return <span className="tag is-danger">Payment Pending</span>
  return <span className="tag is-warning">Pending</span>
}

function SkeletonRows() {
  return (
    <>
      {Array.from({ length: 5 }, (_, i) => (
        <tr key={i} aria-hidden="true" data-skeleton>
          {[60, 30, 50, 30, 10].map((w, j) => (
            <td key={j} className={j === 3 ? 'is-hidden-mobile' : undefined}>
              <span className="dh-skeleton" style={{ width: `${w + 20}%` }} />
            </td>
          ))}
        </tr>
      ))}
    </>
  )
}

export default function Page() {
  const toast = useToast()
  const me = usePageContext().user
  const [draft, setDraft] = useState({ role: '', agentStatus: '' })
  const [filters, setFilters] = useState({ role: '', agentStatus: '' })
  const [page, setPage] = useState(1)
  const [users, setUsers] = useState<AdminUser[]>([])
  const [pagination, setPagination] = useState<Pagination | null>(null)
  const [loading, setLoading] = useState(true)
  const [busyId, setBusyId] = useState<number | null>(null)

  const load = useCallback(async () => {
    setLoading(true)
    const q = new URLSearchParams({ page: String(page), limit: String(LIMIT) })
    if (filters.role) q.set('role', filters.role)
    if (filters.agentStatus) q.set('agentStatus', filters.agentStatus)
    try {
      const res = await api<{ users: AdminUser[]; pagination: Pagination }>(`/api/admin/users?${q}`)
      setUsers(res.users)
      setPagination(res.pagination)
    } catch {
      toast('Failed to fetch users', 'error')
    } finally {
      setLoading(false)
    }
  }, [page, filters, toast])

  useEffect(() => {
    void load()
  }, [load])

  async function changeRole(user: AdminUser, role: string) {
    setBusyId(user.id)
    try {
      const res = await api<{ message?: string; user: AdminUser }>(`/api/admin/users/${user.id}/role`, { method: 'PATCH', body: { role } })
      setUsers((list) => list.map((u) => (u.id === user.id ? res.user : u)))
      toast(res.message || 'User role updated successfully', 'success')
    } catch (err) {
      toast(err instanceof ApiError && err.message ? err.message : 'Failed to update user role', 'error')
    } finally {
      setBusyId(null)
    }
  }

  const total = pagination?.total ?? 0
  const from = total ? (pagination!.page - 1) * pagination!.limit + 1 : 0
  const to = total ? Math.min(total, pagination!.page * pagination!.limit) : 0

  return (
    <section>
      <h1 className="title">Users</h1>
      <p className="subtitle">Manage all users in the system</p>

      <form
        className="box"
        onSubmit={(e) => {
          e.preventDefault()
          setPage(1)
          setFilters({ ...draft })
        }}>
        <div className="columns is-mobile is-multiline is-align-items-flex-end">
          <div className="column is-half-mobile">
            <div className="field">
              <label className="label" htmlFor="users-role">
                Role
              </label>
              <div className="select is-fullwidth">
                <select id="users-role" value={draft.role} onChange={(e) => setDraft({ ...draft, role: e.target.value })}>
                  <option value="">All Roles</option>
                  <option value="PUBLIC">Customers</option>
                  <option value="AGENT">Agents</option>
                  <option value="ADMIN">Admins</option>
                </select>
              </div>
            </div>
          </div>
          <div className="column is-half-mobile">
            <div className="field">
              <label className="label" htmlFor="users-agent-status">
                Agent Status
              </label>
              <div className="select is-fullwidth">
                <select id="users-agent-status" value={draft.agentStatus} onChange={(e) => setDraft({ ...draft, agentStatus: e.target.value })}>
                  <option value="">All</option>
                  <option value="approved">Approved</option>
                  <option value="pending">Pending</option>
                  <option value="rejected">Rejected</option>
                </select>
              </div>
            </div>
          </div>
          <div className="column is-full-mobile is-narrow">
            <button type="submit" className={`button is-primary is-fullwidth${loading ? ' is-loading' : ''}`}>
              Apply Filters
            </button>
          </div>
        </div>
      </form>

      <div className="box p-0">
        <div className="table-container" style={{ position: 'relative' }}>
          <table className="table is-fullwidth is-hoverable">
            <thead>
              <tr>
                <th>User</th>
                <th>Role</th>
                <th>Agent Details</th>
                <th className="is-hidden-mobile">Joined</th>
                <th>
                  <span className="is-sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody aria-busy={loading}>
              {loading ? (
                <SkeletonRows />
              ) : users.length === 0 ? (
                <tr>
                  <td colSpan={5} className="has-text-centered py-6">
                    <p className="has-text-weight-semibold">No users found</p>
                    <p className="has-text-grey">Try adjusting your filters or search criteria.</p>
                  </td>
                </tr>
              ) : (
                users.map((u) => (
                  <tr key={u.id} data-user-row={u.email}>
                    <td>
                      <div className="has-text-weight-semibold">{u.name || u.agent?.name || u.email}</div>
                      <div className="is-size-7">{u.email}</div>
                      {u.phone ? <div className="is-size-7 has-text-grey">{u.phone}</div> : null}
                    </td>
                    <td>
                      <RoleBadge user={u} />
                    </td>
                    <td>
                      {u.agent ? (
                        <>
                          <div>{u.agent.name}</div>
                          <div className="is-size-7 has-text-grey">{u.agent.phone}</div>
                          <AgentBadge agent={u.agent} />
                        </>
                      ) : (
                        <span className="has-text-grey">-</span>
                      )}
                    </td>
                    <td className="is-size-7 is-hidden-mobile">
                      {new Date(u.createdAt).toLocaleDateString('en-GH', { year: 'numeric', month: 'short', day: 'numeric' })}
                    </td>
                    <td>
                      {u.id === me?.id ? null : (
                        <div className="is-flex is-align-items-center is-flex-wrap-wrap" style={{ gap: '0.25rem' }}>
                          <RoleMenu email={u.email} role={u.role} busy={busyId === u.id} onPick={(role) => void changeRole(u, role)} />
                          <SendPasswordReset userId={u.id} label={u.email} />
                        </div>
                      )}
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </div>

      {pagination && total > 0 ? (
        <div className="mt-4">
          <p className="has-text-centered is-size-7 mb-2" data-showing>
            Showing {from} to {to} of {total} results
          </p>
          {pagination.totalPages > 1 ? (
            <Pager page={pagination.page} totalPages={pagination.totalPages} onPage={setPage} disabled={loading} label="Users pages" />
          ) : null}
        </div>
      ) : null}
    </section>
  )
}
