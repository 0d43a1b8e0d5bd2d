import { formatCedis } from '../../../server/lib/money.ts'

export interface PreviewLine {
  line: number
  text: string
  recipient: string
  network: string | null
  bundle: string
  price: number | null
  error: string | null
  warning: string | null
  duplicateOf: number | null
}

/**
 * The server's verdict on each line. Every line's text can be fixed in place; a refused line can be
 * dropped. Nothing here decides: the next check (or the payment) asks the server again.
 */
export function PreviewTable({
  lines,
  texts,
  onEdit,
  onDrop
}: {
  lines: PreviewLine[]
  texts: string[]
  onEdit(i: number, text: string): void
  onDrop(i: number): void
}) {
  return (
    <div className="table-container" tabIndex={0} role="region" aria-label="Checked lines" /* wider than the screen: keyboard-scrollable */>
      <table className="table is-fullwidth is-narrow is-striped" data-testid="bulk-preview">
        <caption className="is-sr-only">Checked lines</caption>
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Number, network, bundle</th>
            <th scope="col">Price</th>
            <th scope="col">Check</th>
            <th scope="col">
              <span className="is-sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {lines.map((l, i) => (
            <tr key={`${l.line}-${i}`} className={l.error ? 'has-background-danger-soft' : undefined} data-line={l.line}>
              <td>{l.line}</td>
              <td>
                <input
                  className={`input is-small${l.error ? ' is-danger' : ''}`}
                  aria-label={`Line ${l.line}`}
                  value={texts[i] ?? ''}
                  onChange={(e) => onEdit(i, e.target.value)}
                />
              </td>
              <td>{l.price === null ? '-' : formatCedis(l.price)}</td>
              <td>
                {l.error ? (
                  <span className="has-text-danger" data-testid="line-error">
                    {l.error}
                  </span>
                ) : null}
                {!l.error && l.duplicateOf ? <span className="tag is-warning is-light">Same as line {l.duplicateOf}</span> : null}
                {!l.error && l.warning ? <span className="help is-warning">{l.warning}</span> : null}
                {!l.error && !l.duplicateOf && !l.warning ? <span className="tag is-success is-light">OK</span> : null}
              </td>
              <td>
                {l.error ? (
                  <button type="button" className="button is-small is-light" onClick={() => onDrop(i)} aria-label={`Drop line ${l.line}`}>
                    Drop
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
