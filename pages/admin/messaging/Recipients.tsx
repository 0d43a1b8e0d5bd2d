export interface AgentOption {
  id: number
  email: string
  name: string
  phone: string
  agent: { approved: boolean }
}

/** Recipients checklist with Select All / Deselect All and the selected count. */
export function Recipients({
  agents,
  selected,
  onChange,
  disabled
}: {
  agents: AgentOption[]
  selected: Set<number>
  onChange: (s: Set<number>) => void
  disabled?: boolean
}) {
  const flip = (id: number) => {
    const next = new Set(selected)
    if (next.has(id)) next.delete(id)
    else next.add(id)
    onChange(next)
  }
  return (
    <fieldset className="field" disabled={disabled}>
      <legend className="label">Recipients</legend>
      <div className="buttons are-small mb-2">
        <button type="button" className="button" onClick={() => onChange(new Set(agents.map((a) => a.id)))} disabled={!agents.length}>
          Select All
        </button>
        <button type="button" className="button" onClick={() => onChange(new Set())} disabled={!selected.size}>
          Deselect All
        </button>
        <span className="ml-2 is-size-7" aria-live="polite" data-selected-count>
          {selected.size} of {agents.length} agents selected
        </span>
      </div>
      <div className="box p-2" style={{ maxHeight: '18rem', overflowY: 'auto' }}>
        {agents.length === 0 ? (
          <p className="has-text-grey p-2">No agents registered yet.</p>
        ) : (
          agents.map((a) => (
            <label key={a.id} className="checkbox is-flex is-align-items-center py-1" style={{ gap: '.5rem' }}>
              <input type="checkbox" checked={selected.has(a.id)} onChange={() => flip(a.id)} data-recipient={a.email} />
              <span className="is-flex-grow-1" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                {a.name} <span className="is-size-7 has-text-grey">{a.email}</span>
              </span>
              {a.agent.approved ? <span className="tag is-success is-light">Approved</span> : <span className="tag is-warning is-light">Pending</span>}
            </label>
          ))
        )}
      </div>
    </fieldset>
  )
}
