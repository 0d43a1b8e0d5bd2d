import { useState } from 'react'
import { usePageContext } from '../../../renderer/usePageContext.tsx'
import { formatCedis } from '../../../server/lib/money.ts'
import type { TiersData } from './+data.ts'
import { TierForm } from './TierForm.tsx'

/** Admin: the dealer tiers (names, promotion thresholds, sub-agent rights) and one agent's sub-agent tree. */
export default function Page() {
  const { tiers: initial, tree } = (usePageContext() as unknown as { data: TiersData }).data
  const [tiers, setTiers] = useState(initial)
  const [said, setSaid] = useState('')
  return (
    <section>
      <h1 className="title">Tiers</h1>
      <p className="subtitle is-6">
        Agents pay their tier's price (set per bundle on <a href="/admin/packages">Packages</a>). Every day agents whose delivered sales over 30 days reach a
        tier's threshold move up to it; they never move down by themselves. The order matters: a tier without its own price for a bundle pays the price of the
        tier above it.
      </p>
      {tree ? (
        <div className="box" data-testid="agent-tree">
          <h2 className="title is-5">Tree of {tree.agent.name}</h2>
          <p className="mb-2">
            Top: <strong>{tree.root?.name ?? tree.agent.name}</strong>
          </p>
          {tree.subAgents.length ? (
            <ul>
              {tree.subAgents.map((s) => (
                <li key={s.id}>
                  {s.name} ({s.phone}): {s.status.toLowerCase().replace(/_/g, ' ')}, {s.sales} sales, {formatCedis(s.salesAmount)}; parent earned{' '}
                  {formatCedis(s.earned)}
                </li>
              ))}
            </ul>
          ) : (
            <p>No sub-agents.</p>
          )}
        </div>
      ) : null}
      <p className="is-sr-only" aria-live="polite">
        {said}
      </p>
      {tiers.map((t, i) => (
        <TierForm
          key={`${t.id}-${t.name}`}
          tier={t}
          last={i === tiers.length - 1}
          onSaved={setTiers}
          onMoved={(next, text) => {
            setTiers(next)
            setSaid(text)
          }}
        />
      ))}
      <TierForm key={`new-${tiers.length}`} tier={null} onSaved={setTiers} />
    </section>
  )
}
