import type { ReactNode } from 'react'

/** One figure with its label; `hint` adds a smaller line under it. */
export function StatCard({ label, value, hint, testId }: { label: string; value: ReactNode; hint?: ReactNode; testId?: string }) {
  return (
    <div className="box stat-card" data-stat={testId}>
      <p className="stat-label">{label}</p>
      <p className="stat-value">{value}</p>
      {hint ? <p className="is-size-7 has-text-grey">{hint}</p> : null}
    </div>
  )
}
