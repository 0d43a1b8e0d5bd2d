import { useEffect, useRef } from 'react'
import type { AuditLogView } from '../../../server/services/audit/logs.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { formatDateTime } from '../_insight/format.ts'
import { useEscape } from '../../../renderer/ui/useEscape.ts'
import { useFocusTrap } from '../../../renderer/ui/useFocusTrap.ts'

const LONG = 50

function Value({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="has-text-grey">-</span>
  const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value, null, 2) : String(value)
  // Long strings (ids, user agents, JSON) read better in monospace.
  return text.length > LONG || typeof value === 'object' ? <code className="is-monospace">{text}</code> : <span>{text}</span>
}

/** The entry's details as a key/value list, with a copy-as-JSON action. Escape or the backdrop closes it. */
export function DetailsModal({ log, onClose }: { log: AuditLogView; onClose: () => void }) {
  const toast = useToast()
  const closeRef = useRef<HTMLButtonElement>(null)
  useEffect(() => closeRef.current?.focus(), [])
  useEscape(onClose)
  const trapRef = useFocusTrap(true)

  async function copy() {
    try {
      await navigator.clipboard.writeText(JSON.stringify(log.details, null, 2))
      toast('Details copied to clipboard!', 'success')
    } catch {
      toast('Failed to copy details', 'error')
    }
  }

  const entries = Object.entries(log.details ?? {})
  return (
    <div ref={trapRef} className="modal is-active" role="dialog" aria-modal="true" aria-labelledby="audit-details-title">
      <div className="modal-background" onClick={onClose} />
      <div className="modal-card">
        <header className="modal-card-head">
          <p className="modal-card-title" id="audit-details-title">
            Log Details
          </p>
          <button className="delete" aria-label="Close" onClick={onClose} />
        </header>
        <section className="modal-card-body">
          <p className="mb-3 is-size-7">
            <strong>{log.action}</strong> on {log.resource}
            {log.resourceId ? ` #${log.resourceId}` : ''} · {formatDateTime(log.timestamp)} · {log.user?.email ?? 'Unknown'} · {log.ipAddress ?? 'no IP'}
          </p>
          {entries.length === 0 ? (
            <p className="has-text-grey">No details recorded.</p>
          ) : (
            <dl className="insight-details" data-testid="audit-details">
              {entries.map(([k, v]) => (
                <div key={k}>
                  <dt>{k}</dt>
                  <dd>
                    <Value value={v} />
                  </dd>
                </div>
              ))}
            </dl>
          )}
        </section>
        <footer className="modal-card-foot is-justify-content-flex-end">
          <div className="buttons">
            <button className="button is-primary" onClick={copy}>
              Copy as JSON
            </button>
            <button className="button" ref={closeRef} onClick={onClose}>
              Close
            </button>
          </div>
        </footer>
      </div>
    </div>
  )
}
