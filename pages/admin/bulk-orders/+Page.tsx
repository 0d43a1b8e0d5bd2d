import { usePageContext } from '../../../renderer/usePageContext.tsx'
import { formatCedis } from '../../../server/lib/money.ts'
import type { AdminBulkData } from './+data.ts'

/** Every agent's bulk orders: who, how many lines, the total paid and how far delivery has come. */
export default function Page() {
  const data = (usePageContext() as unknown as { data: AdminBulkData }).data
  const batches = data?.batches ?? []
  const p = data?.pagination
  return (
    <section>
      <h1 className="title">Bulk Orders</h1>
      <p className="subtitle is-6">Each bulk order was paid with one wallet debit; its lines are ordinary orders.</p>
      {batches.length === 0 ? (
        <p className="has-text-grey">No bulk orders yet.</p>
      ) : (
        <div className="table-container" tabIndex={0} role="region" aria-label="Bulk orders table" /* wider than the screen: keyboard-scrollable */>
          <table className="table is-fullwidth is-striped is-narrow">
            <caption className="is-sr-only">Bulk orders</caption>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Agent</th>
                <th scope="col">Lines</th>
                <th scope="col">Total</th>
                <th scope="col">Progress</th>
                <th scope="col">Placed</th>
                <th scope="col">
                  <span className="is-sr-only">Orders</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {batches.map((b) => (
                <tr key={b.id}>
                  <td>{b.id}</td>
                  <td>
                    {b.agent?.name}
                    <br />
                    <span className="is-size-7">{b.agent?.phone}</span>
                  </td>
                  <td>
                    {b.lines}
                    {b.channel === 'api' ? <span className="tag is-light ml-1">API</span> : null}
                  </td>
                  <td>{formatCedis(b.total)}</td>
                  <td>
                    <progress
                      className="progress is-small is-success mb-1"
                      value={b.counts.delivered}
                      max={b.lines}
                      aria-label={`${b.counts.delivered} of ${b.lines} delivered`}
                    />
                    <span className="is-size-7">
                      {b.counts.delivered} delivered, {b.counts.queued} open, {b.counts.failed} failed ({b.counts.refunded} refunded)
                    </span>
                  </td>
                  <td>{new Date(b.createdAt).toLocaleString('en-GH')}</td>
                  <td>
                    <a href={`/admin/orders?batchId=${b.id}`}>Orders</a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {p && p.totalPages > 1 ? (
        <nav className="pagination is-small" aria-label="pages">
          {p.page > 1 ? (
            <a className="pagination-previous" href={`?page=${p.page - 1}`}>
              Previous
            </a>
          ) : null}
          {p.page < p.totalPages ? (
            <a className="pagination-next" href={`?page=${p.page + 1}`}>
              Next
            </a>
          ) : null}
          <p className="is-size-7">
            Page {p.page} of {p.totalPages}
          </p>
        </nav>
      ) : null}
    </section>
  )
}
