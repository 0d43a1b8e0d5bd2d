import { digitsOnly } from '../_storefront/format.ts'

/** The recipient's number, its check said as it is typed, and the numbers this device sent to lately. */
export function RecipientField(props: {
  value: string
  onChange: (digits: string) => void
  onLeave: () => void
  error: string | null
  warning: string | null
  recent: string[]
}) {
  const { value, onChange, onLeave, error, warning, recent } = props
  return (
    <div className="field">
      <label className="label" htmlFor="recipient">
        Recipient number
      </label>
      <div className="control">
        <input
          id="recipient"
          className={`input${error ? ' is-danger' : ''}`}
          inputMode="numeric"
          autoComplete="tel"
          placeholder="0241234567"
          value={value}
          onChange={(e) => onChange(digitsOnly(e.target.value))}
          onBlur={onLeave}
          aria-invalid={!!error}
          aria-describedby="recipient-help"
        />
      </div>
      <p className={`help${error ? ' is-danger' : warning ? ' is-warning-text' : ''}`} id="recipient-help" aria-live="polite">
        {error ?? warning ?? 'A Ghanaian mobile number: 0241234567, 233241234567 or 241234567.'}
      </p>
      {recent.length ? (
        <div className="sf-row sf-gap-top" aria-label="Recent recipients">
          <span className="sf-muted">Recent</span>
          {recent.map((n) => (
            <button key={n} type="button" className="button is-small is-light sf-chip" onClick={() => onChange(n)}>
              {n}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  )
}
