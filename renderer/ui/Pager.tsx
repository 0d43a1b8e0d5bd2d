import { pageItems } from './page-items.ts'

/** Previous/Next and numbered pages; moves only within 1..totalPages. Hidden when there is one page. */
export function Pager({
  page,
  totalPages,
  onPage,
  label,
  disabled
}: {
  page: number
  totalPages: number
  onPage: (p: number) => void
  label: string
  disabled?: boolean
}) {
  if (totalPages <= 1) return null
  const go = (p: number) => onPage(Math.min(Math.max(1, p), totalPages))
  return (
    <nav className="pagination is-small is-centered mt-4" aria-label={label}>
      <button type="button" className="pagination-previous" disabled={disabled || page <= 1} onClick={() => go(page - 1)}>
        Previous
      </button>
      <button type="button" className="pagination-next" disabled={disabled || page >= totalPages} onClick={() => go(page + 1)}>
        Next
      </button>
      <ul className="pagination-list">
        {pageItems(page, totalPages).map((p, i) =>
          p === 'gap' ? (
            <li key={`gap${i}`}>
              <span className="pagination-ellipsis">&hellip;</span>
            </li>
          ) : (
            <li key={p}>
              <button
                type="button"
                className={`pagination-link${p === page ? ' is-current' : ''}`}
                aria-label={`Page ${p}`}
                aria-current={p === page ? 'page' : undefined}
                disabled={disabled}
                onClick={() => go(p)}>
                {p}
              </button>
            </li>
          )
        )}
      </ul>
    </nav>
  )
}
