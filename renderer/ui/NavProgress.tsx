import { useEffect, useState } from 'react'

/** A thin bar across the top while the next page loads (every navigation is a server render). */
export function NavProgress() {
  const [active, setActive] = useState(false)
  useEffect(() => {
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
      const a = (e.target as HTMLElement).closest('a')
      if (!a || a.target || a.hasAttribute('download') || a.origin !== location.origin) return
      if (a.pathname === location.pathname && a.search === location.search) return
      setActive(true)
    }
    const onShow = () => setActive(false)
    document.addEventListener('click', onClick)
    window.addEventListener('pageshow', onShow)
    return () => {
      document.removeEventListener('click', onClick)
      window.removeEventListener('pageshow', onShow)
    }
  }, [])
  return <div className={`nav-progress${active ? ' is-active' : ''}`} aria-hidden="true" />
}
