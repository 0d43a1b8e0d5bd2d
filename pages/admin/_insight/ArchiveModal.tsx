import { useEffect, useRef, useState } from 'react'
import { useEscape } from '../../../renderer/ui/useEscape.ts'
import { useFocusTrap } from '../../../renderer/ui/useFocusTrap.ts'

export const defaultArchiveNote = () => `Archived on ${new Date().toLocaleDateString('en-GH', { timeZone: 'Africa/Accra' })}`

/** Confirms an archive (selected or all) and takes the note stored with it. Escape or the backdrop cancels. */
export function ArchiveModal({
  title,
  message,
  confirmLabel,
  busy,
  onConfirm,
  onCancel
}: {
  title: string
  message: string
  confirmLabel: string
  busy: boolean
  onConfirm: (notes: string) => void
  onCancel: () => void
}) {
  const [notes, setNotes] = useState(defaultArchiveNote)
  const ref = useRef<HTMLTextAreaElement>(null)
  useEffect(() => ref.current?.focus(), [])
  useEscape(onCancel, !busy)
  const trapRef = useFocusTrap(true)
  return (
    <div ref={trapRef} className="modal is-active" role="dialog" aria-modal="true" aria-labelledby="archive-title">
      <div className="modal-background" onClick={() => !busy && onCancel()} />
      <form
        className="modal-card"
        onSubmit={(e) => {
          e.preventDefault()
          onConfirm(notes)
        }}>
        <header className="modal-card-head">
          <p className="modal-card-title" id="archive-title">
            {title}
          </p>
          <button type="button" className="delete" aria-label="Close" onClick={onCancel} disabled={busy} />
        </header>
        <section className="modal-card-body">
          <p className="mb-3">{message}</p>
          <div className="field">
            <label className="label" htmlFor="archive-notes">
              Notes
            </label>
            <div className="control">
              <textarea id="archive-notes" ref={ref} className="textarea" rows={3} maxLength={500} value={notes} onChange={(e) => setNotes(e.target.value)} />
            </div>
          </div>
        </section>
        <footer className="modal-card-foot is-justify-content-flex-end">
          <div className="buttons">
            <button type="button" className="button" onClick={onCancel} disabled={busy}>
              Cancel
            </button>
            <button type="submit" className={`button is-warning${busy ? ' is-loading' : ''}`} disabled={busy}>
              {confirmLabel}
            </button>
          </div>
        </footer>
      </form>
    </div>
  )
}
