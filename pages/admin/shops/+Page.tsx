import { useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { usePageContext } from '../../../renderer/usePageContext.tsx'
import { formatCedis } from '../../../server/lib/money.ts'
import type { AdminShopsData } from './+data.ts'

type Shop = AdminShopsData['shops'][number]

/** Admin: agents' shops with sales and margin; suspend (with a reason) or reopen, both audited. */
export default function Page() {
  const pc = usePageContext() as unknown as { data: AdminShopsData }
  const toast = useToast()
  const [shops, setShops] = useState<Shop[]>(pc.data.shops)
  const [busy, setBusy] = useState<number | null>(null)
  const [reasons, setReasons] = useState<Record<number, string>>({})

  async function change(s: Shop, action: 'suspend' | 'unsuspend') {
    const reason = (reasons[s.id] ?? '').trim()
    if (action === 'suspend' && !reason) return toast('Please give a reason for suspending the shop', 'error')
    setBusy(s.id)
    try {
      const res = await api<{ shop: { status: Shop['status']; open: boolean } }>(`/api/admin/shops/${s.id}/${action}`, {
        body: action === 'suspend' ? { reason } : {},
        fallbackError: 'Failed to update the shop'
      })
      setShops((list) =>
        list.map((x) => (x.id === s.id ? { ...x, status: res.shop.status, open: res.shop.open, suspendedReason: action === 'suspend' ? reason : null } : x))
      )
      toast(action === 'suspend' ? `Shop ${s.slug} suspended` : `Shop ${s.slug} reopened`, 'success')
    } catch (err) {
      toast(err instanceof ApiError ? err.message : 'Failed to update the shop', 'error')
    } finally {
      setBusy(null)
    }
  }

  return (
    <section>
      <h1 className="title">Shops</h1>
      <p className="subtitle is-6">Agents' shops: sales (paid orders), margin earned (net of refunds) and status. A suspended shop's page says it is closed.</p>
      {shops.length === 0 ? (
        <p className="notification is-light" data-testid="shops-empty">
          No agent has opened a shop yet.
        </p>
      ) : (
        <div className="table-container">
          <table className="table is-fullwidth is-striped is-stacked-mobile">
            <thead>
              <tr>
                <th scope="col">Agent</th>
                <th scope="col">Shop</th>
                <th scope="col">Status</th>
                <th scope="col">Sales</th>
                <th scope="col">Sales amount</th>
                <th scope="col">Margin earned</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {shops.map((s) => (
                <tr key={s.id} data-testid={`shop-row-${s.slug}`}>
                  <td data-label="Agent">
                    {s.agentName}
                    <br />
                    <span className="is-size-7">{s.agentPhone}</span>
                  </td>
                  <td data-label="Shop">
                    <a href={`/shop/${s.slug}`}>{s.name}</a>
                    <br />
                    <span className="is-size-7">/shop/{s.slug}</span>
                  </td>
                  <td data-label="Status">
                    <span className={`tag ${s.status === 'ACTIVE' ? (s.open ? 'is-success' : 'is-warning') : 'is-danger'}`}>
                      {s.status === 'ACTIVE' ? (s.open ? 'Open' : 'Agent not active') : 'Suspended'}
                    </span>
                    {s.suspendedReason ? <p className="is-size-7">{s.suspendedReason}</p> : null}
                  </td>
                  <td data-label="Sales">{s.salesCount}</td>
                  <td data-label="Sales amount">{formatCedis(s.salesAmount)}</td>
                  <td data-label="Margin earned">{formatCedis(s.marginEarned)}</td>
                  <td data-label="Action">
                    {s.status === 'ACTIVE' ? (
                      <div className="field has-addons">
                        <div className="control">
                          <label className="is-sr-only" htmlFor={`reason-${s.id}`}>
                            Reason for suspending {s.slug}
                          </label>
                          <input
                            id={`reason-${s.id}`}
                            className="input is-small"
                            placeholder="Reason"
                            maxLength={300}
                            value={reasons[s.id] ?? ''}
                            onChange={(e) => setReasons((r) => ({ ...r, [s.id]: e.target.value }))}
                          />
                        </div>
                        <div className="control">
                          <button
                            type="button"
                            className={`button is-small is-danger${busy === s.id ? ' is-loading' : ''}`}
                            disabled={busy !== null}
                            onClick={() => change(s, 'suspend')}>
                            Suspend
                          </button>
                        </div>
                      </div>
                    ) : (
                      <button
                        type="button"
                        className={`button is-small is-success${busy === s.id ? ' is-loading' : ''}`}
                        disabled={busy !== null}
                        onClick={() => change(s, 'unsuspend')}>
                        Reopen
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
