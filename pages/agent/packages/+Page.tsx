import { useEffect, useState } from 'react'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { usePageContext } from '../../../renderer/usePageContext.tsx'
import { formatCedis, roundGhs } from '../../../server/lib/money.ts'
import { formatSize, NETWORK_LABEL, NETWORKS } from '../_shared/format.ts'
import { isActiveAgent } from '../../../renderer/format.ts'
import type { PackagesData } from './+data.ts'
import { AgentBenefits } from '../_shared/AgentBenefits.tsx'

export default function Page() {
  const pc = usePageContext() as ReturnType<typeof usePageContext> & { data: PackagesData }
  const toast = useToast()
  const [filter, setFilter] = useState<string>('ALL')
  const packages = pc.data.packages ?? []
  useEffect(() => {
    if (pc.data.packages === null) toast('Failed to load packages', 'error')
  }, [pc.data.packages, toast])

  const shown = packages
    .filter((p) => filter === 'ALL' || p.network === filter)
    .sort((a, b) => NETWORKS.indexOf(a.network as never) - NETWORKS.indexOf(b.network as never) || a.sizeMB - b.sizeMB)

  return (
    <section>
      <h1 className="title">Package Pricing</h1>
      <p className="subtitle is-6">Your agent prices for every active data package.</p>
      {!isActiveAgent(pc.data.agent) ? (
        <div className="notification is-warning is-light">
          Agent prices apply to your orders once your registration payment is successful and your account is approved.
        </div>
      ) : null}

      <div className="buttons has-addons mb-4" role="group" aria-label="Filter by network">
        {['ALL', ...NETWORKS].map((n) => (
          <button key={n} className={`button${filter === n ? ' is-primary is-selected' : ''}`} aria-pressed={filter === n} onClick={() => setFilter(n)}>
            {n}
          </button>
        ))}
      </div>

      <div className="columns is-multiline">
        {NETWORKS.filter((n) => filter === 'ALL' || filter === n).map((n) => {
          const list = packages.filter((p) => p.network === n)
          const save = roundGhs(list.reduce((sum, p) => sum + Math.max(0, p.regular - p.agent), 0))
          return (
            <div key={n} className="column is-12-mobile is-4-tablet">
              <div className="box" data-testid={`network-card-${n}`}>
                <p className="title is-5 mb-1">{NETWORK_LABEL[n]}</p>
                <p>
                  {list.length} package{list.length === 1 ? '' : 's'}
                </p>
                <p className="has-text-success has-text-weight-bold">Save up to {formatCedis(save)}</p>
              </div>
            </div>
          )
        })}
      </div>

      <div className="box">
        {shown.length === 0 ? (
          <p className="has-text-centered py-4">No active packages{filter !== 'ALL' ? ` for ${NETWORK_LABEL[filter]}` : ''}.</p>
        ) : (
          <div className="table-container">
            <table className="table is-fullwidth is-striped">
              <thead>
                <tr>
                  <th>Network</th>
                  <th>Size</th>
                  <th>Regular Price</th>
                  <th>Your Price</th>
                  <th>You Save</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((p) => (
                  <tr key={p.id} data-testid="package-row">
                    <td>{NETWORK_LABEL[p.network] ?? p.network}</td>
                    <td>{formatSize(p.sizeMB)}</td>
                    <td>
                      <span className="strike">{formatCedis(p.regular)}</span>
                    </td>
                    <td className="has-text-weight-bold">{formatCedis(p.agent)}</td>
                    <td className="has-text-success">{formatCedis(roundGhs(Math.max(0, p.regular - p.agent)))}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>

      <AgentBenefits />
    </section>
  )
}
