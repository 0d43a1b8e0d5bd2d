import { useEffect, useRef } from 'react'

/** Calls `onEscape` when Escape is pressed while `enabled` (dialogs close on Escape). */
export function useEscape(onEscape: () => void, enabled = true) {
  const latest = useRef(onEscape)
  latest.current = onEscape
  useEffect(() => {
    if (!enabled) return
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') latest.current()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [enabled])
}
