import { pageItems } from './pagination.ts'

/** Numbered pagination with ellipses and Previous/Next; moves only within 1..total. */
export function Pager({ page, totalPages, onPage, disabled }: { page: number; totalPages: number; onPage: (p: number) => void; disabled?: boolean }) {
  const go = (p: number) => onPage(Math.min(Math.max(1, p), totalPages))
  return (
    <nav className="pagination is-small is-centered" role="navigation" aria-label="Users pages">
      <button className="pagination-previous" disabled={disabled || page <= 1} onClick={() => go(page - 1)}>Previous</button>
      <button className="pagination-next" disabled={disabled || page >= totalPages} onClick={() => go(page + 1)}>Next</button>
      <ul className="pagination-list">
        {pageItems(page, totalPages).map((p, i) =>
          p === 'ellipsis' ? (
            <li key={`e${i}`}><span className="pagination-ellipsis">&hellip;</span></li>
          ) : (
            <li key={p}>
              <button
                className={`pagination-link${p === page ? ' is-current' : ''}`}
                aria-label={`Page ${p}`}
                aria-current={p === page ? 'page' : undefined}
                disabled={disabled}
                onClick={() => go(p)}
              >
                {p}
              </button>
            </li>
          ),
        )}
      </ul>
    </nav>
  )
}
