import { useEffect, useState, type ComponentType } from 'react'

/**
 * The idle warning, its code fetched after hydration: it shows nothing for the first 25 minutes, so a
 * signed-in page need not wait for it, and a visitor's first load (no session) never carries it.
 */
export function LazySessionTimeout() {
  const [Warning, setWarning] = useState<ComponentType | null>(null)
  useEffect(() => {
    let live = true
    import('./SessionTimeout.tsx').then(
      (m) => live && setWarning(() => m.SessionTimeout),
      () => undefined
    )
    return () => {
      live = false
    }
  }, [])
  return Warning ? <Warning /> : null
}
