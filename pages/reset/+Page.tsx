import { useEffect, useState, type FormEvent } from 'react'
import { api, ApiError } from '../../renderer/api.ts'

const RESET_ID_KEY = 'rdh_reset_identifier'
const DONE = 'Your password was changed. Log in with your new password.'

function PasswordField({
  id,
  label,
  value,
  onChange,
  show,
  autoComplete
}: {
  id: string
  label: string
  value: string
  onChange: (v: string) => void
  show: boolean
  autoComplete: string
}) {
  return (
    <div className="field">
      <label className="label" htmlFor={id}>
        {label}
      </label>
      <div className="control">
        <input
          id={id}
          name={id}
          className="input"
          type={show ? 'text' : 'password'}
          autoComplete={autoComplete}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          required
          minLength={6}
        />
      </div>
    </div>
  )
}

export default function Page() {
  const [identifier, setIdentifier] = useState('')
  const [code, setCode] = useState('')
  const [newPassword, setNewPassword] = useState('')
  const [confirmPassword, setConfirmPassword] = useState('')
  const [show, setShow] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    try {
      const saved = sessionStorage.getItem(RESET_ID_KEY)
      if (saved) setIdentifier(saved)
    } catch {
      /* storage unavailable */
    }
  }, [])

  async function submit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    if (!identifier.trim()) return setError('Enter your phone number or email')
    if (!/^\d{6}$/.test(code.trim())) return setError('Enter the 6-digit code')
    if (!newPassword || !confirmPassword) return setError('All password fields are required')
    if (newPassword !== confirmPassword) return setError('New passwords do not match')
    if (newPassword.length < 6) return setError('Password must be at least 6 characters')
    setBusy(true)
    try {
      await api('/api/auth/reset', {
        body: { identifier: identifier.trim(), code: code.trim(), newPassword, confirmPassword },
        fallbackError: 'Failed to reset password'
      })
      try {
        sessionStorage.removeItem(RESET_ID_KEY)
        sessionStorage.setItem('rdh_flash', DONE)
      } catch {
        /* storage unavailable */
      }
      location.href = '/login'
    } catch (err) {
      setError(err instanceof ApiError && err.message ? err.message : 'Failed to reset password')
      setBusy(false)
    }
  }

  return (
    <section className="section">
      <div className="container" style={{ maxWidth: 420 }}>
        <h1 className="title">Reset your password</h1>
        <form className="box" onSubmit={submit} noValidate aria-describedby={error ? 'reset-error' : undefined}>
          {error ? (
            <div className="notification is-danger" id="reset-error" role="alert">
              {error}
            </div>
          ) : null}
          <div className="field">
            <label className="label" htmlFor="identifier">
              Phone number or email
            </label>
            <div className="control">
              <input
                id="identifier"
                name="identifier"
                className="input"
                type="text"
                autoComplete="username"
                value={identifier}
                onChange={(e) => setIdentifier(e.target.value)}
                required
              />
            </div>
          </div>
          <div className="field">
            <label className="label" htmlFor="code">
              6-digit code
            </label>
            <div className="control">
              <input
                id="code"
                name="code"
                className="input"
                type="text"
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="\d{6}"
                maxLength={6}
                value={code}
                onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
                required
                aria-describedby="code-help"
              />
            </div>
            <p className="help" id="code-help">
              The code we sent is valid for 10 minutes.
            </p>
          </div>
          <PasswordField id="newPassword" label="New password" value={newPassword} onChange={setNewPassword} show={show} autoComplete="new-password" />
          <PasswordField
            id="confirmPassword"
            label="Confirm new password"
            value={confirmPassword}
            onChange={setConfirmPassword}
            show={show}
            autoComplete="new-password"
          />
          <div className="field">
            <button type="button" className="button is-small" aria-pressed={show} aria-controls="newPassword confirmPassword" onClick={() => setShow(!show)}>
              {show ? 'Hide passwords' : 'Show passwords'}
            </button>
          </div>
          <button className={`button is-primary is-fullwidth${busy ? ' is-loading' : ''}`} type="submit" disabled={busy}>
            Change password
          </button>
          <p className="mt-4 has-text-centered">
            <a href="/forgot">Need a new code?</a> · <a href="/login">Back to Sign In</a>
          </p>
        </form>
      </div>
    </section>
  )
}
