import { formatCedis, formatSize } from '../_storefront/format.ts'
import type { StorePackage } from './+data.ts'

/** The packages of one network as a radio group; agents see their price and what they save. */
export function PackagePicker(props: { packages: StorePackage[]; selected: number | null; onSelect(id: number): void; agentPricing: boolean; label?: string }) {
  if (props.packages.length === 0) return <p className="notification is-light">No packages available for this network.</p>
  return (
    <div className="sf-packages" role="radiogroup" aria-label={props.label ?? 'Data package'}>
      {props.packages.map((p) => {
        const agentPrice = props.agentPricing && p.priceAgent !== null ? p.priceAgent : null
        const save = agentPrice !== null && p.priceUser !== null && agentPrice < p.priceUser ? p.priceUser - agentPrice : 0
        const checked = props.selected === p.id
        return (
          <label key={p.id} className={`sf-package${checked ? ' is-selected' : ''}`} data-testid={`package-${p.id}`}>
            <input
              type="radio"
              name="package"
              value={p.id}
              checked={checked}
              onChange={() => props.onSelect(p.id)}
              // Space and the arrow keys select natively; Enter selects too instead of submitting the form.
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault()
                  props.onSelect(p.id)
                }
              }}
            />
            <span className="sf-size">{formatSize(p.sizeMB)}</span>
            <span className="is-block sf-muted">{p.name}</span>
            {agentPrice !== null ? (
              <>
                <span className="is-block has-text-weight-bold">{formatCedis(agentPrice)}</span>
                {save > 0 ? (
                  <>
                    <span className="is-block sf-muted strike">{formatCedis(p.priceUser)}</span>
                    <span className="tag is-success is-light">Save {formatCedis(save)}</span>
                  </>
                ) : null}
              </>
            ) : (
              <span className="is-block has-text-weight-bold">{formatCedis(p.priceUser)}</span>
            )}
          </label>
        )
      })}
    </div>
  )
}
