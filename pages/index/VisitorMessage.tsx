import { useEffect, useState } from 'react'
import { usePageContext } from '../../renderer/usePageContext.tsx'
import { useEscape } from '../../renderer/ui/useEscape.ts'
import { useFocusTrap } from '../../renderer/ui/useFocusTrap.ts'

const CLOSED_KEY = 'visitorMessageClosed'
const SIG_KEY = 'visitorMessageSig'
const TYPE_CLASS: Record<string, string> = { INFO: 'is-info', SUCCESS: 'is-success', WARNING: 'is-warning', ERROR: 'is-danger' }

/**
 * The admin's message to visitors: once per browser session; closing it is remembered for the session
 * and forgotten when the title or content changes (spec section 2, Home).
 */
export function VisitorMessage() {
  const { settings } = usePageContext()
  const title = settings.visitorMessageTitle ?? ''
  const content = settings.visitorMessageContent ?? ''
  const enabled = !!settings.visitorMessageEnabled && !!(title || content)
  const [open, setOpen] = useState(false)

  useEffect(() => {
    if (!enabled) return
    try {
      const sig = JSON.stringify([title, content])
      if (sessionStorage.getItem(SIG_KEY) !== sig) {
        sessionStorage.removeItem(CLOSED_KEY)
        sessionStorage.setItem(SIG_KEY, sig)
      }
      setOpen(sessionStorage.getItem(CLOSED_KEY) !== 'true')
    } catch {
      setOpen(true)
    }
  }, [enabled, title, content])

  useEscape(close, open)
  const trapRef = useFocusTrap(enabled && open)

  function close() {
    setOpen(false)
    try {
      sessionStorage.setItem(CLOSED_KEY, 'true')
    } catch {
      /* storage unavailable: closed for this page view */
    }
  }

  if (!enabled || !open) return null
  const type = String(settings.visitorMessageType ?? 'INFO').toUpperCase()
  return (
    <div ref={trapRef} className="modal is-active" role="dialog" aria-modal="true" aria-labelledby="visitor-message-title" data-testid="visitor-message">
      <div className="modal-background" onClick={close} />
      <div className="modal-content">
        <article className={`message ${TYPE_CLASS[type] ?? 'is-info'}`}>
          <div className="message-header">
            <p id="visitor-message-title">{title || 'Notice'}</p>
            <button className="delete" aria-label="Close message" onClick={close} autoFocus />
          </div>
          <div className="message-body" style={{ whiteSpace: 'pre-line' }}>
            {content}
          </div>
        </article>
      </div>
    </div>
  )
}
