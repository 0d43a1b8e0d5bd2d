import { useEffect, useRef, useState } from 'react'
import { api, onApiActivity } from '../api.ts'
import { signOut } from './sign-out.ts'
import { useToast } from './Toasts.tsx'
import { useFocusTrap } from './useFocusTrap.ts'

// Spec section 9: idle timeout 30 min, warning 300 s before, checked every second.
const IDLE_MS = 30 * 60 * 1000
const WARN_SECONDS = 300
const TOUCH_EVERY_MS = 5 * 60 * 1000

/** Warns before the idle session ends, with a countdown; Extend Session keeps the server session alive. */
export function SessionTimeout() {
  const toast = useToast()
  const last = useRef(Date.now())
  const lastTouch = useRef(Date.now())
  const [remaining, setRemaining] = useState<number | null>(null)
  const trapRef = useFocusTrap(remaining !== null)

  useEffect(() => {
    const bump = () => {
      last.current = Date.now()
    }
    const onActivity = () => {
      if (remaining !== null) return // while warning, only the buttons decide
      bump()
      // The server session rolls only on requests; keep it in step with real activity.
      if (Date.now() - lastTouch.current > TOUCH_EVERY_MS) {
        lastTouch.current = Date.now()
        api('/api/auth/me').catch(() => {})
      }
    }
    onApiActivity(() => {
      lastTouch.current = Date.now()
      bump()
    })
    const events = ['mousemove', 'keydown', 'scroll', 'touchstart', 'click']
    for (const e of events) window.addEventListener(e, onActivity, { passive: true })
    const timer = setInterval(() => {
      const left = Math.ceil((IDLE_MS - (Date.now() - last.current)) / 1000)
      if (left <= 0) {
        clearInterval(timer)
        toast('Session expired due to inactivity', 'info')
        void signOut('Session expired due to inactivity. Please log in again.')
      } else setRemaining(left <= WARN_SECONDS ? left : null)
    }, 1000)
    return () => {
      for (const e of events) window.removeEventListener(e, onActivity)
      clearInterval(timer)
    }
  }, [remaining, toast])

  if (remaining === null) return null
  const extend = async () => {
    try {
      await api('/api/auth/me')
      last.current = Date.now()
      setRemaining(null)
      toast('Session extended successfully', 'success')
    } catch {
      toast('Failed to extend session', 'error')
    }
  }
  const mm = Math.floor(remaining / 60)
  const ss = String(remaining % 60).padStart(2, '0')
  return (
    <div ref={trapRef} className="modal is-active" role="alertdialog" aria-modal="true" aria-labelledby="session-timeout-title">
      <div className="modal-background" />
      <div className="modal-card" style={{ maxWidth: 'calc(100vw - 2rem)' }}>
        <header className="modal-card-head">
          <p className="modal-card-title" id="session-timeout-title">
            Your session is about to expire
          </p>
        </header>
        <section className="modal-card-body">
          <p>
            You have been inactive for a while. You will be signed out in{' '}
            <strong aria-live="polite">
              {mm}:{ss}
            </strong>
            .
          </p>
        </section>
        <footer className="modal-card-foot buttons">
          <button className="button is-primary" onClick={extend} autoFocus>
            Extend Session
          </button>
          <button className="button" onClick={() => signOut()}>
            Logout Now
          </button>
        </footer>
      </div>
    </div>
  )
}
