/** Start and end date inputs; the end may not precede the start. */
export function DateRange({
  idPrefix,
  startDate,
  endDate,
  onChange
}: {
  idPrefix: string
  startDate: string
  endDate: string
  onChange: (next: { startDate: string; endDate: string }) => void
}) {
  return (
    <>
      <div className="column is-half-mobile">
        <div className="field">
          <label className="label is-small" htmlFor={`${idPrefix}-start`}>
            Start Date
          </label>
          <div className="control">
            <input
              id={`${idPrefix}-start`}
              className="input is-small"
              type="date"
              value={startDate}
              max={endDate || undefined}
              onChange={(e) => onChange({ startDate: e.target.value, endDate })}
            />
          </div>
        </div>
      </div>
      <div className="column is-half-mobile">
        <div className="field">
          <label className="label is-small" htmlFor={`${idPrefix}-end`}>
            End Date
          </label>
          <div className="control">
            <input
              id={`${idPrefix}-end`}
              className="input is-small"
              type="date"
              value={endDate}
              min={startDate || undefined}
              onChange={(e) => onChange({ startDate, endDate: e.target.value })}
            />
          </div>
        </div>
      </div>
    </>
  )
}
