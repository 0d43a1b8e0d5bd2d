import { useState } from 'react'
import { Pager as SharedPager } from '../../../renderer/ui/Pager.tsx'

/** Moves within 1..totalPages; anything that is not a whole number >= 1 falls back to 1 (spec section 5). */
export const clampPage = (raw: unknown, totalPages: number) => {
  const n = Math.trunc(Number(raw))
  return Number.isFinite(n) && n >= 1 ? Math.min(n, Math.max(1, totalPages)) : 1
}

/** The shared pager, plus a go-to-page box when the pages no longer all show. */
export function Pager({ page, totalPages, onPage, label }: { page: number; totalPages: number; onPage: (p: number) => void; label: string }) {
  const [goTo, setGoTo] = useState('')
  if (totalPages <= 1) return null
  const id = `${label.replace(/\W+/g, '-')}-goto`
  return (
    <>
      <SharedPager page={page} totalPages={totalPages} onPage={onPage} label={label} />
      {totalPages > 7 ? (
        <form
          className="field has-addons is-justify-content-center mt-2"
          onSubmit={(e) => {
            e.preventDefault()
            onPage(clampPage(goTo, totalPages))
            setGoTo('')
          }}>
          <div className="control">
            <label className="is-sr-only" htmlFor={id}>
              Go to page
            </label>
            <input
              id={id}
              className="input is-small"
              style={{ width: '6rem' }}
              inputMode="numeric"
              placeholder="Page"
              value={goTo}
              onChange={(e) => setGoTo(e.target.value)}
            />
          </div>
          <div className="control">
            <button type="submit" className="button is-small">
              Go
            </button>
          </div>
        </form>
      ) : null}
    </>
  )
}
