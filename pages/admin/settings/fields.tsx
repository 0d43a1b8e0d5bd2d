import type { ReactNode } from 'react'

/** Small labelled inputs for the settings form; values are kept as text until saving. */
export type Values = Record<string, string | boolean>
export interface FieldProps {
  name: string
  label: string
  values: Values
  set: (name: string, v: string | boolean) => void
  help?: ReactNode
}

export function Text({ name, label, values, set, help, type = 'text', placeholder }: FieldProps & { type?: string; placeholder?: string }) {
  return (
    <div className="field">
      <label className="label" htmlFor={`s-${name}`}>
        {label}
      </label>
      <input
        id={`s-${name}`}
        name={name}
        className="input"
        type={type}
        placeholder={placeholder}
        value={String(values[name] ?? '')}
        onChange={(e) => set(name, e.target.value)}
      />
      {help ? <p className="help">{help}</p> : null}
    </div>
  )
}

export function Area({ name, label, values, set, help, rows = 3 }: FieldProps & { rows?: number }) {
  return (
    <div className="field">
      <label className="label" htmlFor={`s-${name}`}>
        {label}
      </label>
      <textarea id={`s-${name}`} name={name} className="textarea" rows={rows} value={String(values[name] ?? '')} onChange={(e) => set(name, e.target.value)} />
      {help ? <p className="help">{help}</p> : null}
    </div>
  )
}

export function Num({ name, label, values, set, help, min, max, step }: FieldProps & { min?: number; max?: number; step: number }) {
  return (
    <div className="field">
      <label className="label" htmlFor={`s-${name}`}>
        {label}
      </label>
      <input
        id={`s-${name}`}
        name={name}
        className="input"
        type="number"
        inputMode="decimal"
        min={min}
        max={max}
        step={step}
        value={String(values[name] ?? '')}
        onChange={(e) => set(name, e.target.value)}
      />
      {help ? <p className="help">{help}</p> : null}
    </div>
  )
}

export function Switch({ name, label, values, set, help }: FieldProps) {
  return (
    <div className="field">
      <label className="checkbox" htmlFor={`s-${name}`}>
        <input
          id={`s-${name}`}
          name={name}
          type="checkbox"
          role="switch"
          aria-checked={values[name] === true}
          checked={values[name] === true}
          onChange={(e) => set(name, e.target.checked)}
        />{' '}
        <strong>{label}</strong>
      </label>
      {help ? <p className="help">{help}</p> : null}
    </div>
  )
}

export function Choice({ name, label, values, set, help, options }: FieldProps & { options: Array<{ value: string; label: string }> }) {
  return (
    <div className="field">
      <label className="label" htmlFor={`s-${name}`}>
        {label}
      </label>
      <div className="select is-fullwidth">
        <select id={`s-${name}`} name={name} value={String(values[name] ?? '')} onChange={(e) => set(name, e.target.value)}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
      {help ? <p className="help">{help}</p> : null}
    </div>
  )
}
