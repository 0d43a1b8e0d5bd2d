import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react'

export type ToastType = 'success' | 'error' | 'info'
interface Toast {
  id: number
  text: string
  type: ToastType
}
type Show = (text: string, type?: ToastType, durationMs?: number) => void

// Spec section 9: default 5000 ms, success 8000 ms, info 6000 ms.
const DURATION: Record<ToastType, number> = { success: 8000, error: 5000, info: 6000 }
const ToastCtx = createContext<Show>(() => {})
const FLASH_KEY = 'dh_flash'
/** At most two at once, so a phone's screen is never covered by a pile of them. */
const MAX_TOASTS = 2

/**
 * A toast for the next page: every navigation is a full page load, so a message said just before
 * one ('Signed in', an agent's order success) is kept in sessionStorage and shown on arrival.
 */
export function flashToast(text: string, type: ToastType = 'info', durationMs?: number) {
  try {
    sessionStorage.setItem(FLASH_KEY, JSON.stringify({ text, type, durationMs }))
  } catch {
    /* storage unavailable: the message is lost, the navigation is not */
  }
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([])
  const dismiss = useCallback((id: number) => setToasts((t) => t.filter((x) => x.id !== id)), [])
  const show = useCallback<Show>(
    (text, type = 'info', durationMs) => {
      const id = Date.now() + Math.random()
      setToasts((t) => [...t.slice(-(MAX_TOASTS - 1)), { id, text, type }])
      setTimeout(() => dismiss(id), durationMs ?? DURATION[type])
    },
    [dismiss]
  )
  useEffect(() => {
    try {
      const raw = sessionStorage.getItem(FLASH_KEY)
      if (!raw) return
      sessionStorage.removeItem(FLASH_KEY)
      const f = JSON.parse(raw) as { text: string; type: ToastType; durationMs?: number }
      if (typeof f.text === 'string' && f.text) show(f.text, f.type, f.durationMs)
    } catch {
      /* nothing to show */
    }
  }, [show])
  const value = useMemo(() => show, [show])
  return (
    <ToastCtx.Provider value={value}>
      {children}
      <div className="toast-area" role="status" aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} className={`notification ${t.type === 'success' ? 'is-success' : t.type === 'error' ? 'is-danger' : 'is-info'}`} data-toast={t.type}>
            <button className="delete" aria-label="Dismiss" onClick={() => dismiss(t.id)} />
            {t.text}
          </div>
        ))}
      </div>
    </ToastCtx.Provider>
  )
}

export const useToast = () => useContext(ToastCtx)
