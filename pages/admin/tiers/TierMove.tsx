import { useEffect, useRef, useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import type { TiersData } from './+data.ts'

type Tier = TiersData['tiers'][number]

/** Move up / Move down for one tier; the server renumbers and audits. */
export function TierMove({ tier, last, onMoved }: { tier: Tier; last: boolean; onMoved: (tiers: Tier[], said: string) => void }) {
  const toast = useToast()
  const [busy, setBusy] = useState(false)
  const [refocus, setRefocus] = useState<'up' | 'down' | null>(null)
  const up = useRef<HTMLButtonElement>(null)
  const down = useRef<HTMLButtonElement>(null)

  // The list is re-ordered around the focused button; once it is enabled again, put the keyboard back
  // on it (or on the other one when the tier reached an end).
  useEffect(() => {
    if (!refocus || busy) return
    const [mine, other] = refocus === 'up' ? [up.current, down.current] : [down.current, up.current]
    ;(mine && !mine.disabled ? mine : other)?.focus()
    setRefocus(null)
  }, [refocus, busy, tier.position])

  async function move(direction: 'up' | 'down') {
    setBusy(true)
    try {
      const res = await api<{ tiers: Tier[] }>(`/api/admin/tiers/${tier.id}/move`, {
        method: 'POST',
        body: { direction },
        fallbackError: 'Failed to move the tier'
      })
      const now = res.tiers.find((t) => t.id === tier.id)
      onMoved(res.tiers, `${tier.name} is now number ${(now?.position ?? 0) + 1} of ${res.tiers.length}`)
      setRefocus(direction)
    } catch (err) {
      toast(err instanceof ApiError ? err.message : 'Failed to move the tier', 'error')
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="buttons has-addons is-inline-flex ml-2" role="group" aria-label={`Order of ${tier.name}`}>
      <button
        type="button"
        ref={up}
        className="button is-small"
        disabled={busy || tier.position === 0}
        onClick={() => move('up')}
        aria-label={`Move ${tier.name} up`}>
        <span aria-hidden="true">↑</span>&nbsp;Up
      </button>
      <button type="button" ref={down} className="button is-small" disabled={busy || last} onClick={() => move('down')} aria-label={`Move ${tier.name} down`}>
        <span aria-hidden="true">↓</span>&nbsp;Down
      </button>
    </div>
  )
}
