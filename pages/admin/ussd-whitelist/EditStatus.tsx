import { useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import type { WhitelistEntry } from '../../../server/services/whitelist/index.ts'
import { useEscape } from '../../../renderer/ui/useEscape.ts'
import { useFocusTrap } from '../../../renderer/ui/useFocusTrap.ts'

/** Edit-status modal: Active or Inactive. */
export function EditStatus({ entry, onClose, onSaved }: { entry: WhitelistEntry; onClose: () => void; onSaved: (e: WhitelistEntry) => void }) {
  const toast = useToast()
  const [active, setActive] = useState(entry.isActive)
  const [busy, setBusy] = useState(false)
  useEscape(onClose, !busy)
  const trapRef = useFocusTrap(true)

  async function save() {
    setBusy(true)
    try {
      const res = await api<{ entry: WhitelistEntry }>(`/api/ussd-whitelist/${entry.id}`, { method: 'PUT', body: { isActive: active } })
      toast('Entry updated successfully', 'success')
      onSaved(res.entry)
    } catch (err) {
      toast(`Failed to update entry: ${err instanceof ApiError ? err.message : String(err)}`, 'error')
      setBusy(false)
    }
  }

  return (
    <div ref={trapRef} className="modal is-active" role="dialog" aria-modal="true" aria-labelledby="edit-title">
      <div className="modal-background" onClick={() => !busy && onClose()} />
      <div className="modal-card">
        <header className="modal-card-head">
          <p className="modal-card-title" id="edit-title">
            Edit {entry.phoneNumber}
          </p>
          <button className="delete" aria-label="Close" onClick={onClose} disabled={busy} />
        </header>
        <section className="modal-card-body">
          <div className="field">
            <label className="label" htmlFor="edit-status">
              Status
            </label>
            <div className="select is-fullwidth">
              <select id="edit-status" value={active ? 'active' : 'inactive'} onChange={(e) => setActive(e.target.value === 'active')}>
                <option value="active">Active</option>
                <option value="inactive">Inactive</option>
              </select>
            </div>
          </div>
        </section>
        <footer className="modal-card-foot buttons">
          <button className={`button is-primary${busy ? ' is-loading' : ''}`} onClick={() => void save()} disabled={busy}>
            Save
          </button>
          <button className="button" onClick={onClose} disabled={busy}>
            Cancel
          </button>
        </footer>
      </div>
    </div>
  )
}
