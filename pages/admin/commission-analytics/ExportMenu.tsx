import { useEffect, useRef, useState } from 'react'
import { download } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { query, todayIso } from '../_insight/format.ts'

/** Archived CSV, Current CSV and Analytics CSV (the analytics one follows the page's filters). */
export function ExportMenu({ filters }: { filters: Record<string, string> }) {
  const toast = useToast()
  const [open, setOpen] = useState(false)
  const [busy, setBusy] = useState(false)
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!open) return
    const onDoc = (e: MouseEvent) => ref.current && !ref.current.contains(e.target as Node) && setOpen(false)
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false)
    document.addEventListener('click', onDoc)
    window.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('click', onDoc)
      window.removeEventListener('keydown', onKey)
    }
  }, [open])

  async function run(path: string, filename: string, what: string) {
    setOpen(false)
    setBusy(true)
    try {
      await download(path, { filename })
      toast(`${what} exported`, 'success')
    } catch {
      toast(`Failed to export ${what.toLowerCase()}`, 'error')
    } finally {
      setBusy(false)
    }
  }

  const day = todayIso()
  return (
    <div className={`dropdown is-right${open ? ' is-active' : ''}`} ref={ref}>
      <div className="dropdown-trigger">
        <button
          className={`button${busy ? ' is-loading' : ''}`}
          aria-haspopup="true"
          aria-expanded={open}
          aria-controls="export-menu"
          onClick={() => setOpen(!open)}
          disabled={busy}>
          Export ▾
        </button>
      </div>
      <div className="dropdown-menu" id="export-menu" role="menu">
        <div className="dropdown-content">
          <button
            type="button"
            role="menuitem"
            className="dropdown-item"
            onClick={() => run('/api/commission-analytics/export/csv', `archived_commissions_${day}.csv`, 'Archived commissions')}>
            Archived CSV
          </button>
          <button
            type="button"
            role="menuitem"
            className="dropdown-item"
            onClick={() => run('/api/commission-analytics/export/current-csv', `current_commissions_${day}.csv`, 'Current commissions')}>
            Current CSV
          </button>
          <button
            type="button"
            role="menuitem"
            className="dropdown-item"
            onClick={() =>
              run(
                `/api/commission-analytics/export/analytics-csv?${query(filters)}`,
                `commission_analytics_${filters.groupBy ?? 'day'}_${day}.csv`,
                'Analytics'
              )
            }>
            Analytics CSV
          </button>
        </div>
      </div>
    </div>
  )
}
