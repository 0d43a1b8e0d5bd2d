import { useEffect, useRef, type RefObject } from 'react'

/** While `open`, a tap or click outside every one of `inside` (the drawer and its toggle) calls `close`. */
export function useTapOutside(inside: RefObject<HTMLElement | null>[], open: boolean, close: () => void) {
  const latest = useRef(close)
  latest.current = close
  useEffect(() => {
    if (!open) return
    const onDown = (e: PointerEvent) => {
      const t = e.target as Node | null
      if (t && inside.some((r) => r.current?.contains(t))) return
      latest.current()
    }
    document.addEventListener('pointerdown', onDown)
    return () => document.removeEventListener('pointerdown', onDown)
    // The refs are stable objects; only `open` starts and stops the listening.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open])
}
