import { useState } from 'react'
import { formatCedis } from '../../../server/lib/money.ts'
import type { AdminPackage } from '../../../server/services/packages/admin.ts'
import { usePageContext } from '../../../renderer/usePageContext.tsx'
import { PackageForm } from './PackageForm.tsx'
import { TierPriceGrid, type TierGrid } from './TierPriceGrid.tsx'
import { formatSize } from './size.ts'
import { NETWORK_LABEL, NETWORKS } from '../../../renderer/format.ts'

const LABEL = NETWORK_LABEL
const ORDER: readonly string[] = NETWORKS
const sortPackages = (list: AdminPackage[]) =>
  [...list].sort((a, b) => ORDER.indexOf(a.network) - ORDER.indexOf(b.network) || a.sizeMB - b.sizeMB || a.id - b.id)

export default function Page() {
  const data = (usePageContext() as unknown as { data?: { packages: AdminPackage[]; tierGrid: TierGrid | null } }).data
  const initial = data?.packages ?? []
  const [packages, setPackages] = useState(() => sortPackages(initial))
  // null: form closed; 'new': creating; a package: editing it.
  const [form, setForm] = useState<AdminPackage | 'new' | null>(null)

  function saved(p: AdminPackage) {
    setPackages((list) => sortPackages([...list.filter((x) => x.id !== p.id), p]))
    setForm(null)
  }

  return (
    <section>
      <div className="is-flex is-flex-wrap-wrap is-justify-content-space-between is-align-items-center mb-4" style={{ gap: '.75rem' }}>
        <div>
          <h1 className="title">Packages</h1>
          <p className="subtitle is-6">Data bundles, prices and availability</p>
        </div>
        <button className="button is-primary" onClick={() => setForm('new')} disabled={form === 'new'}>
          Add Package
        </button>
      </div>

      {form ? (
        <PackageForm key={form === 'new' ? 'new' : form.id} editing={form === 'new' ? null : form} onSaved={saved} onCancel={() => setForm(null)} />
      ) : null}

      <div className="box p-0">
        <div className="table-container" style={{ position: 'relative' }}>
          <table className="table is-fullwidth is-hoverable">
            <thead>
              <tr>
                <th>Network</th>
                <th>Size</th>
                <th>Regular Price</th>
                <th>Agent Price</th>
                <th>Status</th>
                <th>
                  <span className="is-sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {packages.length === 0 ? (
                <tr>
                  <td colSpan={6} className="has-text-centered py-5">
                    No packages yet. Use Add Package to create one.
                  </td>
                </tr>
              ) : (
                packages.map((p) => (
                  <tr key={p.id} data-package-id={p.id}>
                    <td>
                      <span className="network-badge">{LABEL[p.network] ?? p.network}</span>
                    </td>
                    <td>
                      <span style={{ whiteSpace: 'nowrap' }}>{formatSize(p.sizeMB)}</span>
                      {p.name ? <div className="is-size-7 has-text-grey">{p.name}</div> : null}
                    </td>
                    <td style={{ whiteSpace: 'nowrap' }}>{formatCedis(p.priceUser)}</td>
                    <td style={{ whiteSpace: 'nowrap' }}>{p.priceAgent === null ? <span className="has-text-grey">-</span> : formatCedis(p.priceAgent)}</td>
                    <td>{p.active ? <span className="tag is-success is-light">Active</span> : <span className="tag">Inactive</span>}</td>
                    <td>
                      <button
                        className="button is-small"
                        aria-label={`Edit ${LABEL[p.network]} ${formatSize(p.sizeMB)}`}
                        onClick={() => {
                          setForm(p)
                          window.scrollTo({ top: 0, behavior: 'smooth' })
                        }}>
                        Edit
                      </button>
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </div>
      {data?.tierGrid ? <TierPriceGrid initial={data.tierGrid} /> : null}
    </section>
  )
}
