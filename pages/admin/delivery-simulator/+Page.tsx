import { useEffect, useState, type FormEvent } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { SelectField } from '../../../renderer/ui/SelectField.tsx'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import type { SimulatorState } from '../../../server/services/delivery/vendors/simulator.ts'

const MODES = [
  { value: 'deliver', label: 'Deliver normally' },
  { value: 'fail', label: 'Fail (vendor answers 500)' },
  { value: 'timeout', label: 'Time out' },
  { value: 'late', label: 'Confirm late' }
]

/** The simulator vendor's control: make the next deliveries fail, time out or confirm late (docs/delivery.md). */
export default function Page() {
  const toast = useToast()
  const [state, setState] = useState<SimulatorState | null>(null)
  const [mode, setMode] = useState('fail')
  const [count, setCount] = useState('1')
  const [lateSeconds, setLateSeconds] = useState('20')
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    api<{ simulator: SimulatorState }>('/api/delivery/simulator').then(
      (r) => setState(r.simulator),
      () => toast('Failed to load the simulator state', 'error')
    )
  }, [toast])

  async function apply(e: FormEvent) {
    e.preventDefault()
    setBusy(true)
    try {
      const r = await api<{ simulator: SimulatorState }>('/api/delivery/simulator', {
        method: 'POST',
        body: { mode, count: Number(count), lateMs: Math.round(Number(lateSeconds) * 1000) }
      })
      setState(r.simulator)
      toast('Simulator updated', 'success')
    } catch (err) {
      toast(err instanceof ApiError ? err.message : 'Failed to update the simulator', 'error')
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="ops-page">
      <h1 className="title is-4">Delivery Simulator</h1>
      <p className="subtitle is-6">Used when no data vendor is configured. It delivers after a short delay unless told otherwise here.</p>
      <div className="box" aria-live="polite" data-testid="simulator-state">
        {state ? (
          <p>
            Next deliveries:{' '}
            <strong>{state.remaining > 0 ? `${MODES.find((m) => m.value === state.mode)?.label} (${state.remaining} left)` : 'Deliver normally'}</strong>. Calls
            so far: {state.calls}; delivered: {state.delivered}.
          </p>
        ) : (
          <p>Loading...</p>
        )}
      </div>
      <form className="box" onSubmit={apply}>
        <SelectField id="sim-mode" label="Next deliveries" value={mode} onChange={setMode} options={MODES} />
        <div className="field">
          <label className="label" htmlFor="sim-count">
            How many
          </label>
          <input
            id="sim-count"
            className="input"
            type="number"
            min={1}
            max={1000}
            step={1}
            value={count}
            onChange={(e) => setCount(e.target.value)}
            disabled={mode === 'deliver'}
          />
        </div>
        {mode === 'late' ? (
          <div className="field">
            <label className="label" htmlFor="sim-late">
              Confirm after (seconds)
            </label>
            <input
              id="sim-late"
              className="input"
              type="number"
              min={0}
              max={600}
              step={1}
              value={lateSeconds}
              onChange={(e) => setLateSeconds(e.target.value)}
            />
          </div>
        ) : null}
        <button type="submit" className={`button is-primary${busy ? ' is-loading' : ''}`} disabled={busy}>
          Apply
        </button>
      </form>
    </section>
  )
}
