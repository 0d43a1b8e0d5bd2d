import { useRef, type KeyboardEvent } from 'react'

export interface TabItem<T extends string> {
  id: T
  label: string
  href?: string
}

/**
 * Bulma tabs that follow the ARIA tabs pattern: one tab in the Tab order (roving tabindex), the
 * arrow keys move to the next or previous tab (Home/End to the first and last) and select it.
 * The panel is the caller's: `<div role="tabpanel" id={`panel-${id}`} aria-labelledby={`tab-${id}`}>`.
 * `everyPanel`: the caller renders every tab's panel (the others `hidden`), so every tab names its own.
 */
export function Tabs<T extends string>({
  tabs,
  current,
  onChange,
  label,
  className = '',
  everyPanel = false
}: {
  tabs: TabItem<T>[]
  current: T
  onChange: (id: T) => void
  label: string
  className?: string
  everyPanel?: boolean
}) {
  const refs = useRef(new Map<T, HTMLAnchorElement | null>())
  const onKeyDown = (e: KeyboardEvent) => {
    const i = tabs.findIndex((t) => t.id === current)
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key]
    if (next === undefined) return
    e.preventDefault()
    const target = tabs[(next + tabs.length) % tabs.length]!
    onChange(target.id)
    refs.current.get(target.id)?.focus()
  }
  return (
    <div className={`tabs ${className}`}>
      <ul role="tablist" aria-label={label} onKeyDown={onKeyDown}>
        {tabs.map((t) => {
          const active = t.id === current
          return (
            <li key={t.id} role="presentation" className={active ? 'is-active' : undefined}>
              <a
                ref={(el) => {
                  refs.current.set(t.id, el)
                }}
                role="tab"
                id={`tab-${t.id}`}
                aria-selected={active}
                aria-controls={active || everyPanel ? `panel-${t.id}` : undefined}
                tabIndex={active ? 0 : -1}
                href={t.href ?? `#panel-${t.id}`}
                onClick={(e) => {
                  e.preventDefault()
                  onChange(t.id)
                }}>
                {t.label}
              </a>
            </li>
          )
        })}
      </ul>
    </div>
  )
}
