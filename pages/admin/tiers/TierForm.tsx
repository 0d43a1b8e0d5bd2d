import { useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { ghsFixed } from '../../../server/lib/money.ts'
import type { TiersData } from './+data.ts'
import { TierMove } from './TierMove.tsx'

type Tier = TiersData['tiers'][number]

/** One tier's name and settings (or a new tier, placed last); saved through the API, audited there. */
export function TierForm({
  tier,
  last = false,
  onSaved,
  onMoved
}: {
  tier: Tier | null
  last?: boolean
  onSaved: (tiers: Tier[]) => void
  onMoved?: (tiers: Tier[], said: string) => void
}) {
  const toast = useToast()
  const key = tier ? `tier-${tier.id}` : 'tier-new'
  const [name, setName] = useState(tier?.name ?? '')
  const [promoteAt, setPromoteAt] = useState(tier?.promoteAt === null || tier?.promoteAt === undefined ? '' : ghsFixed(tier.promoteAt))
  const [mayInvite, setMayInvite] = useState(tier?.mayInvite ?? false)
  const [parentsApprove, setParentsApprove] = useState(tier?.parentsApprove ?? false)
  const [saving, setSaving] = useState(false)

  async function save(e: React.FormEvent) {
    e.preventDefault()
    setSaving(true)
    try {
      const res = await api<{ tiers: Tier[] }>('/api/admin/tiers', {
        method: 'POST',
        body: { ...(tier ? { id: tier.id } : {}), name, promoteAt: promoteAt.trim() === '' ? null : Number(promoteAt), mayInvite, parentsApprove },
        fallbackError: 'Failed to save the tier'
      })
      onSaved(res.tiers)
      if (!tier) setName('')
      toast('Tier saved', 'success')
    } catch (err) {
      toast(err instanceof ApiError ? err.message : 'Failed to save the tier', 'error')
    } finally {
      setSaving(false)
    }
  }

  return (
    <form className="box" onSubmit={save} data-testid={key}>
      <h2 className="title is-6">
        {tier ? `${tier.position + 1}. ${tier.name}` : 'Add a tier (placed last)'}
        {tier ? <span className="tag is-light ml-2">{tier.agents} agents</span> : null}
      </h2>
      <div className="columns is-multiline">
        <div className="column is-12-mobile is-4-tablet">
          <label className="label" htmlFor={`${key}-name`}>
            Name
          </label>
          <input id={`${key}-name`} className="input" value={name} maxLength={40} required onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="column is-12-mobile is-4-tablet">
          <label className="label" htmlFor={`${key}-promote`}>
            Promote at (GH₵ delivered in 30 days)
          </label>
          <input
            id={`${key}-promote`}
            className="input"
            type="number"
            inputMode="decimal"
            min={0.01}
            step="0.01"
            placeholder="Only by an admin"
            value={promoteAt}
            onChange={(e) => setPromoteAt(e.target.value)}
          />
        </div>
        <div className="column is-12-mobile is-4-tablet">
          <label className="checkbox is-block mb-2">
            <input type="checkbox" checked={mayInvite} onChange={(e) => setMayInvite(e.target.checked)} /> May invite sub-agents
          </label>
          <label className="checkbox is-block">
            <input type="checkbox" checked={parentsApprove} disabled={!mayInvite} onChange={(e) => setParentsApprove(e.target.checked)} /> Approves its own
            sub-agents
          </label>
        </div>
      </div>
      <button type="submit" className={`button is-primary${saving ? ' is-loading' : ''}`} disabled={saving}>
        {tier ? 'Save' : 'Add tier'}
      </button>
      {tier && onMoved ? <TierMove tier={tier} last={last} onMoved={onMoved} /> : null}
    </form>
  )
}
