import { useEffect, useRef, useState } from 'react'

export const ROLE_OPTIONS = [
  { value: 'PUBLIC', label: 'Customer' },
  { value: 'AGENT', label: 'Agent' },
  { value: 'ADMIN', label: 'Admin' }
] as const

/**
 * The row's three-dot menu. It opens in the flow of the cell (not floating) so the scrolling
 * table at 360 px never clips it.
 */
export function RoleMenu({ email, role, busy, onPick }: { email: string; role: string; busy: boolean; onPick: (role: string) => void }) {
  const [open, setOpen] = useState(false)
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!open) return
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false)
    const onClick = (e: MouseEvent) => ref.current && !ref.current.contains(e.target as Node) && setOpen(false)
    window.addEventListener('keydown', onKey)
    window.addEventListener('mousedown', onClick)
    return () => {
      window.removeEventListener('keydown', onKey)
      window.removeEventListener('mousedown', onClick)
    }
  }, [open])
  return (
    <div ref={ref}>
      <button
        className={`button is-small is-ghost${busy ? ' is-loading' : ''}`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={`Change role for ${email}`}
        data-role-menu={email}
        onClick={() => setOpen(!open)}>
        &#8942;
      </button>
      {open ? (
        <div className="role-menu" role="menu" aria-label={`Roles for ${email}`}>
          {ROLE_OPTIONS.map((o) => (
            <button
              key={o.value}
              role="menuitemradio"
              aria-checked={o.value === role}
              className={`button is-small${o.value === role ? ' is-primary' : ''}`}
              disabled={busy}
              onClick={() => {
                setOpen(false)
                if (o.value !== role) onPick(o.value)
              }}>
              {o.label}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  )
}
