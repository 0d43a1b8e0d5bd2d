export type SelectOption = string | number | { value: string | number; label: string }

/** A labelled, small, full-width select: the filter control of the admin lists. */
export function SelectField({
  id,
  label,
  value,
  onChange,
  options
}: {
  id: string
  label: string
  value: string | number
  onChange: (value: string) => void
  options: readonly SelectOption[]
}) {
  return (
    <div className="field">
      <label className="label is-small" htmlFor={id}>
        {label}
      </label>
      <div className="select is-small is-fullwidth">
        <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
          {options.map((o) => {
            const v = typeof o === 'object' ? o.value : o
            return (
              <option key={v} value={v}>
                {typeof o === 'object' ? o.label : String(o)}
              </option>
            )
          })}
        </select>
      </div>
    </div>
  )
}
