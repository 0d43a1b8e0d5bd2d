import { useState } from 'react'

/** Spec section 9: every page when 7 or fewer, else first, last and the neighbours with ellipses. */
export function pageItems(page: number, totalPages: number): Array<number | 'gap'> {
  if (totalPages <= 7) return Array.from({ length: totalPages }, (_, i) => i + 1)
  const out: Array<number | 'gap'> = [1]
  const from = Math.max(2, page - 1)
  const to = Math.min(totalPages - 1, page + 1)
  if (from > 2) out.push('gap')
  for (let p = from; p <= to; p++) out.push(p)
  if (to < totalPages - 1) out.push('gap')
  out.push(totalPages)
  return out
}

/** Moves within 1..totalPages; non-numbers fall back to 1 (spec section 5). */
export const clampPage = (raw: unknown, totalPages: number) => {
  const n = Math.trunc(Number(raw))
  return Number.isFinite(n) && n >= 1 ? Math.min(n, Math.max(1, totalPages)) : 1
}

export function Pager({ page, totalPages, onPage, label }: { page: number; totalPages: number; onPage: (p: number) => void; label: string }) {
  const [goTo, setGoTo] = useState('')
  if (totalPages <= 1) return null
  return (
    <>
    <nav className="pagination is-centered is-small mt-4" role="navigation" aria-label={label}>
      <button className="pagination-previous" disabled={page <= 1} onClick={() => onPage(clampPage(page - 1, totalPages))}>Previous</button>
      <button className="pagination-next" disabled={page >= totalPages} onClick={() => onPage(clampPage(page + 1, totalPages))}>Next</button>
      <ul className="pagination-list">
        {pageItems(page, totalPages).map((p, i) =>
          p === 'gap' ? (
            <li key={`gap${i}`}><span className="pagination-ellipsis">&hellip;</span></li>
          ) : (
            <li key={p}>
              <button className={`pagination-link${p === page ? ' is-current' : ''}`} aria-label={`Page ${p}`} aria-current={p === page ? 'page' : undefined} onClick={() => onPage(p)}>{p}</button>
            </li>
          ),
        )}
      </ul>
    </nav>
    {totalPages > 7 ? (
      <form className="field has-addons is-justify-content-center mt-2" onSubmit={(e) => { e.preventDefault(); onPage(clampPage(goTo, totalPages)); setGoTo('') }}>
        <div className="control">
          <label className="is-sr-only" htmlFor={`${label.replace(/\W+/g, "-")}-goto`}>Go to page</label>
          <input id={`${label.replace(/\W+/g, "-")}-goto`} className="input is-small" style={{ width: '6rem' }} inputMode="numeric" placeholder="Page" value={goTo} onChange={(e) => setGoTo(e.target.value)} />
        </div>
        <div className="control"><button type="submit" className="button is-small">Go</button></div>
      </form>
    ) : null}
    </>
  )
}
