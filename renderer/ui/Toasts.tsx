import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react'

export type ToastType = 'success' | 'error' | 'info'
interface Toast { id: number; text: string; type: ToastType }
type Show = (text: string, type?: ToastType, durationMs?: number) => void

// Spec section 9: default 5000 ms, success 8000 ms, info 6000 ms.
const DURATION: Record<ToastType, number> = { success: 8000, error: 5000, info: 6000 }
const ToastCtx = createContext<Show>(() => {})

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([])
  const dismiss = useCallback((id: number) => setToasts((t) => t.filter((x) => x.id !== id)), [])
  const show = useCallback<Show>((text, type = 'info', durationMs) => {
    const id = Date.now() + Math.random()
    setToasts((t) => [...t.slice(-4), { id, text, type }])
    setTimeout(() => dismiss(id), durationMs ?? DURATION[type])
  }, [dismiss])
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
