import { useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'

export interface TierOption {
  id: number
  name: string
}

/** An agent's tier, changed by the admin (audited, told to the agent); the first tier stands for none. */
export function AgentTier({ agentId, agentName, tierId, tiers }: { agentId: number; agentName: string; tierId: number | null; tiers: TierOption[] }) {
  const toast = useToast()
  const [value, setValue] = useState(tierId ?? tiers[0]?.id ?? 0)
  const [saving, setSaving] = useState(false)
  async function change(next: number) {
    const before = value
    setValue(next)
    setSaving(true)
    try {
      await api(`/api/admin/tiers/agents/${agentId}`, { method: 'PUT', body: { tierId: next }, fallbackError: 'Failed to change the tier' })
      toast(`${agentName} is now in ${tiers.find((t) => t.id === next)?.name ?? 'the tier'}`, 'success')
    } catch (err) {
      setValue(before)
      toast(err instanceof ApiError ? err.message : 'Failed to change the tier', 'error')
    } finally {
      setSaving(false)
    }
  }
  if (!tiers.length) return <span>-</span>
  return (
    <div className={`select is-small${saving ? ' is-loading' : ''}`}>
      <select
        value={value}
        disabled={saving}
        onChange={(e) => void change(Number(e.target.value))}
        aria-label={`Tier of ${agentName}`}
        data-testid="agent-tier">
        {tiers.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
      </select>
    </div>
  )
}
