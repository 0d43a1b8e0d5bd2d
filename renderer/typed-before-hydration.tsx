import { useEffect } from 'react'

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement

const isToggle = (el: Field): el is HTMLInputElement => el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')

/** What the visitor changed before the page's code came, read just before hydration; told to React once the page has hydrated. */
let pending: Field[] = []

/**
 * Notes the form fields the visitor changed before the page's code came (the page is shown first, ADR 0044): a value,
 * a tick or a choice that is not the one the server wrote. Called before hydration, while the DOM still holds only what
 * the visitor did.
 */
export function noteFieldsChangedBeforeHydration(root: ParentNode): void {
  pending = changedFields(root)
}

/**
 * Notes too the fields changed since in parts React has not hydrated yet (lazy-hydrated.tsx): their code comes after the
 * page's, so a visitor may type into their HTML after the page hydrated. Called when such a part's code has come, just
 * before React hydrates it; its own TypedBeforeHydration tells them.
 */
export function noteFieldsChangedInPartsToHydrate(root: ParentNode): void {
  pending.push(...changedFields(root).filter((el) => !hydrated(el) && !pending.includes(el)))
}

/** The fields whose value, tick or choice is not the one the server wrote. */
function changedFields(root: ParentNode): Field[] {
  const changed: Field[] = []
  for (const el of root.querySelectorAll<Field>('input, textarea, select')) {
    if (el instanceof HTMLSelectElement) {
      if ([...el.options].some((o) => o.selected !== o.defaultSelected)) changed.push(el)
    } else if (isToggle(el)) {
      if (el.checked !== el.defaultChecked) changed.push(el)
    } else if (el.type !== 'file' && el.type !== 'hidden' && el.value !== el.defaultValue) changed.push(el)
  }
  return changed
}

/** Sets a property with the element's own prototype setter, past the record of its value React keeps on the element. */
function setPast(el: Field, prop: 'value' | 'checked', value: string | boolean) {
  Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), prop)?.set?.call(el, value)
}

/**
 * React takes an input's value as it finds it when hydrating but not into the page's state, so the next render (a
 * keystroke in another field) puts the empty state back and the typing is lost. Each field is told again as the event
 * React listens for, with React's record of its value made different first, so the page's own onChange takes it.
 */
function tellReact(fields: Field[]) {
  for (const el of fields) {
    if (!el.isConnected) continue
    if (el instanceof HTMLSelectElement) {
      el.dispatchEvent(new Event('change', { bubbles: true }))
    } else if (isToggle(el)) {
      const checked = el.checked
      el.checked = !checked
      setPast(el, 'checked', checked)
      el.dispatchEvent(new Event('click', { bubbles: true }))
    } else {
      const value = el.value
      el.value = value ? '' : ' '
      setPast(el, 'value', value)
      el.dispatchEvent(new Event('input', { bubbles: true }))
    }
  }
}

/**
 * Placed last inside the part that holds the page (a layout's Suspense boundary hydrates after the root): its effect
 * runs once the page's fields have hydrated, and tells React what was done before. Renders nothing.
 */
export function TypedBeforeHydration() {
  useEffect(() => {
    // A field inside a part hydrated later (lazy-hydrated.tsx) is not React's yet: an event on it now would be dropped.
    // It stays noted, and that part's own TypedBeforeHydration tells it once the part has hydrated.
    const ready = pending.filter(hydrated)
    pending = pending.filter((el) => !ready.includes(el))
    tellReact(ready)
  }, [])
  return null
}

/** Whether React has hydrated the element: it keeps its fiber on each DOM node it took over, under a key of its own. */
const hydrated = (el: Field) => Object.keys(el).some((k) => k.startsWith('__reactFiber$'))
