import { useState, type FormEvent } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import type { AdminPackage } from '../../../server/services/packages/admin.ts'
import { NETWORK_LABEL, NETWORKS } from '../../../renderer/format.ts'
import { gbToMb, mbToGbText } from './size.ts'

const NETWORK_OPTIONS = NETWORKS.map((value) => ({ value, label: NETWORK_LABEL[value]! }))

interface Draft {
  network: string
  sizeGb: string
  priceUser: string
  priceAgent: string
  active: boolean
}

const draftOf = (p: AdminPackage | null): Draft =>
  p
    ? {
        network: p.network,
        sizeGb: mbToGbText(p.sizeMB),
        priceUser: String(p.priceUser),
        priceAgent: p.priceAgent === null ? '' : String(p.priceAgent),
        active: p.active
      }
    : { network: '', sizeGb: '', priceUser: '', priceAgent: '', active: true }

/** Create or edit one package: size in GB here, MB on the server (spec section 5 rules). */
export function PackageForm({ editing, onSaved, onCancel }: { editing: AdminPackage | null; onSaved: (p: AdminPackage) => void; onCancel: () => void }) {
  const toast = useToast()
  const [d, setD] = useState<Draft>(() => draftOf(editing))
  const [busy, setBusy] = useState(false)
  const set = (patch: Partial<Draft>) => setD((x) => ({ ...x, ...patch }))

  async function submit(e: FormEvent) {
    e.preventDefault()
    const gb = Number(d.sizeGb)
    const user = Number(d.priceUser)
    const agent = d.priceAgent.trim() === '' ? null : Number(d.priceAgent)
    const valid =
      d.network &&
      d.sizeGb.trim() !== '' &&
      Number.isFinite(gb) &&
      gb >= 0.1 &&
      // A price is at least 0.01 and the agent price never above the user price (the server checks again).
      d.priceUser.trim() !== '' &&
      Number.isFinite(user) &&
      user >= 0.01 &&
      (agent === null || (Number.isFinite(agent) && agent >= 0.01 && agent <= user))
    if (!valid) {
      toast('Fill all fields correctly', 'error')
      return
    }
    // An unchanged size keeps its exact MB (a 500 MB package shows as 0.49 GB).
    const sizeMB = editing && d.sizeGb === mbToGbText(editing.sizeMB) ? editing.sizeMB : gbToMb(gb)
    setBusy(true)
    try {
      const res = await api<{ package: AdminPackage }>('/api/packages', {
        body: { ...(editing ? { id: editing.id } : {}), network: d.network, sizeMB, priceUser: user, priceAgent: agent, active: d.active }
      })
      toast(editing ? 'Package updated' : 'Package created', 'success')
      onSaved(res.package)
    } catch (err) {
      toast(err instanceof ApiError && err.message ? err.message : 'Fill all fields correctly', 'error')
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="box" onSubmit={submit} noValidate aria-labelledby="package-form-title">
      <h2 className="title is-5" id="package-form-title">
        {editing ? 'Edit Package' : 'Create Package'}
      </h2>
      <div className="columns is-multiline">
        <div className="column is-half-tablet">
          <div className="field">
            <label className="label" htmlFor="pkg-network">
              Network
            </label>
            <div className="select is-fullwidth">
              <select id="pkg-network" value={d.network} required onChange={(e) => set({ network: e.target.value })}>
                <option value="">Select network</option>
                {NETWORK_OPTIONS.map((n) => (
                  <option key={n.value} value={n.value}>
                    {n.label}
                  </option>
                ))}
              </select>
            </div>
          </div>
        </div>
        <div className="column is-half-tablet">
          <div className="field">
            <label className="label" htmlFor="pkg-size">
              Size (GB)
            </label>
            <input
              id="pkg-size"
              className="input"
              type="number"
              inputMode="decimal"
              min={0.1}
              step={0.1}
              required
              value={d.sizeGb}
              onChange={(e) => set({ sizeGb: e.target.value })}
            />
          </div>
        </div>
        <div className="column is-half-tablet">
          <div className="field">
            <label className="label" htmlFor="pkg-price-user">
              Regular Price (GH₵)
            </label>
            <input
              id="pkg-price-user"
              className="input"
              type="number"
              inputMode="decimal"
              min={0.01}
              step={0.01}
              required
              value={d.priceUser}
              onChange={(e) => set({ priceUser: e.target.value })}
            />
          </div>
        </div>
        <div className="column is-half-tablet">
          <div className="field">
            <label className="label" htmlFor="pkg-price-agent">
              Agent Price (GH₵)
            </label>
            <input
              id="pkg-price-agent"
              className="input"
              type="number"
              inputMode="decimal"
              min={0.01}
              step={0.01}
              placeholder="Optional"
              value={d.priceAgent}
              onChange={(e) => set({ priceAgent: e.target.value })}
            />
            <p className="help">Leave empty to charge agents the regular price.</p>
          </div>
        </div>
        <div className="column is-full">
          <label className="checkbox">
            <input id="pkg-active" type="checkbox" checked={d.active} onChange={(e) => set({ active: e.target.checked })} /> Active (shown to buyers)
          </label>
        </div>
      </div>
      <div className="buttons">
        <button type="submit" className={`button is-primary${busy ? ' is-loading' : ''}`} disabled={busy}>
          {editing ? 'Update Package' : 'Create Package'}
        </button>
        <button type="button" className="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  )
}
