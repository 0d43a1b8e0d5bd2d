import { useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { NETWORK_LABEL } from '../../../renderer/format.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { formatCedis, ghsFixed } from '../../../server/lib/money.ts'
import type { TiersService } from '../../../server/services/pricing/tiers.ts'

export type TierGrid = Awaited<ReturnType<TiersService['grid']>>
type Row = TierGrid['packages'][number]

const textsOf = (p: Row) => Object.fromEntries(p.prices.map((c) => [c.tierId, c.price === null ? '' : ghsFixed(c.price)]))

/** Each package's price per tier; an empty cell pays what the tier above it pays (its placeholder shows that price). */
export function TierPriceGrid({ initial }: { initial: TierGrid }) {
  const toast = useToast()
  const [grid, setGrid] = useState(initial)
  const [texts, setTexts] = useState<Record<number, Record<number, string>>>(() => Object.fromEntries(initial.packages.map((p) => [p.id, textsOf(p)])))
  const [saving, setSaving] = useState<number | null>(null)

  async function save(p: Row) {
    setSaving(p.id)
    try {
      const body = { prices: grid.tiers.map((t) => ({ tierId: t.id, price: (texts[p.id]?.[t.id] ?? '').trim() === '' ? null : Number(texts[p.id]![t.id]) })) }
      const next = await api<TierGrid>(`/api/admin/tiers/prices/${p.id}`, { method: 'PUT', body, fallbackError: 'Failed to save tier prices' })
      setGrid(next)
      const row = next.packages.find((x) => x.id === p.id)
      if (row) setTexts((all) => ({ ...all, [p.id]: textsOf(row) }))
      toast('Tier prices saved', 'success')
    } catch (err) {
      toast(err instanceof ApiError ? err.message : 'Failed to save tier prices', 'error')
    } finally {
      setSaving(null)
    }
  }

  if (!grid.tiers.length) return null
  return (
    <div className="box mt-5">
      <h2 className="title is-5" id="tier-grid-title">
        Prices per tier
      </h2>
      <p className="mb-3">
        Leave a cell empty to charge what the tier above it pays (the first tier: the agent price). A tier price cannot be above the regular price.{' '}
        <a href="/admin/tiers">Edit tiers</a>
      </p>
      <div className="table-container">
        <table className="table is-fullwidth is-stacked-mobile" aria-labelledby="tier-grid-title">
          <thead>
            <tr>
              <th scope="col">Bundle</th>
              <th scope="col">Agent price</th>
              {grid.tiers.map((t) => (
                <th key={t.id} scope="col">
                  {t.name}
                </th>
              ))}
              <th scope="col">
                <span className="is-sr-only">Save</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {grid.packages.map((p) => {
              const label = `${p.name} (${NETWORK_LABEL[p.network as keyof typeof NETWORK_LABEL] ?? p.network})`
              return (
                <tr key={p.id} data-testid={`tier-row-${p.id}`}>
                  <td data-label="Bundle">
                    {label}
                    {p.active ? null : <span className="tag ml-1">Inactive</span>}
                  </td>
                  <td data-label="Agent price">{formatCedis(p.agentPrice)}</td>
                  {p.prices.map((c) => {
                    const tier = grid.tiers.find((t) => t.id === c.tierId)
                    return (
                      <td key={c.tierId} data-label={tier?.name ?? ''}>
                        <input
                          className="input is-small"
                          type="number"
                          inputMode="decimal"
                          step="0.01"
                          min={0.01}
                          max={p.priceUser}
                          placeholder={ghsFixed(c.effective)}
                          value={texts[p.id]?.[c.tierId] ?? ''}
                          onChange={(e) => setTexts((all) => ({ ...all, [p.id]: { ...all[p.id], [c.tierId]: e.target.value } }))}
                          aria-label={`${tier?.name ?? 'Tier'} price for ${label}`}
                        />
                      </td>
                    )
                  })}
                  <td>
                    <button
                      type="button"
                      className={`button is-small is-primary${saving === p.id ? ' is-loading' : ''}`}
                      disabled={saving !== null}
                      onClick={() => void save(p)}>
                      Save
                    </button>
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
    </div>
  )
}
