import { useState, type FormEvent } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'

export function ChangePassword() {
  const toast = useToast()
  const [f, setF] = useState({ current: '', next: '', confirm: '' })
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const ready = !!(f.current && f.next && f.confirm)

  async function submit(e: FormEvent) {
    e.preventDefault()
    if (!ready) return
    if (f.next !== f.confirm) return setError('New passwords do not match')
    if (f.next.length < 6) return setError('Password must be at least 6 characters')
    setError(null)
    setBusy(true)
    try {
      await api('/api/auth/change-password', { body: { currentPassword: f.current, newPassword: f.next }, fallbackError: 'Failed to change password' })
      toast('Password changed successfully', 'success')
      setF({ current: '', next: '', confirm: '' })
    } catch (err) {
      const text = err instanceof ApiError && err.message ? err.message : 'Failed to change password'
      setError(text)
      toast(text, 'error')
    } finally {
      setBusy(false)
    }
  }

  const field = (id: keyof typeof f, label: string, autoComplete: string) => (
    <div className="field">
      <label className="label" htmlFor={`pw-${id}`}>
        {label}
      </label>
      <div className="control">
        <input
          id={`pw-${id}`}
          className="input"
          type="password"
          autoComplete={autoComplete}
          value={f[id]}
          onChange={(e) => setF({ ...f, [id]: e.target.value })}
        />
      </div>
    </div>
  )

  return (
    <form className="card mb-4" onSubmit={submit} noValidate>
      <header className="card-header">
        <h2 className="card-header-title">Change Password</h2>
      </header>
      <div className="card-content">
        {error ? (
          <div className="notification is-danger is-light" role="alert" data-testid="password-error">
            {error}
          </div>
        ) : null}
        {field('current', 'Current Password', 'current-password')}
        {field('next', 'New Password', 'new-password')}
        {field('confirm', 'Confirm New Password', 'new-password')}
        <button type="submit" className={`button is-primary${busy ? ' is-loading' : ''}`} disabled={!ready || busy}>
          Change Password
        </button>
      </div>
    </form>
  )
}
