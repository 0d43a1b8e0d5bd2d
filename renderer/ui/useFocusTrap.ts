import { useEffect, useLayoutEffect, useRef } from 'react'

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

const focusables = (root: HTMLElement) =>
  [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((e) => e.getClientRects().length > 0 && !e.closest('[inert]'))

/**
 * Every modal's keyboard rules: while `active`, focus moves into the dialog (unless
 * something in it already took it), Tab and Shift+Tab go round inside it, and when the dialog closes
 * focus returns to what had it before. Put the returned ref on the `.modal` element.
 */
export function useFocusTrap<T extends HTMLElement = HTMLDivElement>(active = true) {
  const ref = useRef<T>(null)
  const opener = useRef<HTMLElement | null>(null)
  // Layout effects run before any dialog's own focusing effect: this still sees the opener.
  useLayoutEffect(() => {
    if (active) opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null
  }, [active])
  useEffect(() => {
    const root = ref.current
    if (!active || !root) return
    const before = opener.current
    if (!root.hasAttribute('tabindex')) root.setAttribute('tabindex', '-1')
    if (!root.contains(document.activeElement)) (focusables(root)[0] ?? root).focus()
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Tab') return
      const list = focusables(root)
      if (list.length === 0) {
        e.preventDefault()
        root.focus()
        return
      }
      const first = list[0]!
      const last = list[list.length - 1]!
      const at = document.activeElement
      if (!root.contains(at) || (e.shiftKey && (at === first || at === root))) {
        e.preventDefault()
        ;(e.shiftKey ? last : first).focus()
      } else if (!e.shiftKey && at === last) {
        e.preventDefault()
        first.focus()
      }
    }
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('keydown', onKey)
      // Back to where the person was, if that control is still on the page.
      if (!before || !before.isConnected || before === document.body) return
      before.focus()
      // Disabled meanwhile (a form reset after the dialog): the first control of its form instead.
      if (document.activeElement !== before) {
        const area = before.closest<HTMLElement>('form, main')
        if (area) focusables(area)[0]?.focus()
      }
    }
  }, [active])
  return ref
}
