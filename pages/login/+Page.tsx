import { useEffect, useState, type FormEvent } from 'react'
import { api, ApiError } from '../../renderer/api.ts'
import { flashToast, useToast } from '../../renderer/ui/Toasts.tsx'

const REMEMBER_KEY = 'rdh_remember_email'

export default function Page() {
  const toast = useToast()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [remember, setRemember] = useState(false)
  const [show, setShow] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    try {
      const saved = localStorage.getItem(REMEMBER_KEY)
      if (saved) {
        setEmail(saved)
        setRemember(true)
      }
      const flash = sessionStorage.getItem('rdh_flash')
      if (flash) {
        sessionStorage.removeItem('rdh_flash')
        toast(flash, 'info')
      }
    } catch {
      /* storage unavailable */
    }
  }, [toast])

  async function submit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    if (!email.trim() || !password) {
      setError('Enter email and password')
      return
    }
    setBusy(true)
    try {
      const res = await api<{ role: string; email: string }>('/api/auth/login', { body: { email: email.trim(), password }, fallbackError: 'Login failed' })
      try {
        if (remember) localStorage.setItem(REMEMBER_KEY, email.trim())
        else localStorage.removeItem(REMEMBER_KEY)
      } catch {
        /* storage unavailable */
      }
      flashToast('Signed in', 'success')
      const role = String(res.role).toLowerCase()
      location.href = role === 'admin' ? '/admin/overview' : role === 'agent' ? '/agent' : '/'
    } catch (err) {
      setError(err instanceof ApiError && err.message ? err.message : 'Login failed')
      setBusy(false)
    }
  }

  return (
    <section className="section">
      <div className="container" style={{ maxWidth: 420 }}>
        <h1 className="title">Sign In</h1>
        <form className="box" onSubmit={submit} noValidate aria-describedby={error ? 'login-error' : undefined}>
          {error ? (
            <div className="notification is-danger" id="login-error" role="alert">
              {error}
            </div>
          ) : null}
          <div className="field">
            <label className="label" htmlFor="email">
              Email
            </label>
            <div className="control">
              <input
                id="email"
                name="email"
                className="input"
                type="email"
                autoComplete="username"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                required
              />
            </div>
          </div>
          <div className="field">
            <label className="label" htmlFor="password">
              Password
            </label>
            <div className="field has-addons mb-0">
              <div className="control is-expanded">
                <input
                  id="password"
                  name="password"
                  className="input"
                  type={show ? 'text' : 'password'}
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  required
                />
              </div>
              <div className="control">
                <button type="button" className="button" aria-pressed={show} aria-controls="password" onClick={() => setShow(!show)}>
                  {show ? 'Hide' : 'Show'}
                </button>
              </div>
            </div>
          </div>
          <div className="field is-flex is-justify-content-space-between is-align-items-center">
            <label className="checkbox">
              <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} /> Remember me
            </label>
            <a href="/forgot">Forgot your password?</a>
          </div>
          <button className={`button is-primary is-fullwidth${busy ? ' is-loading' : ''}`} type="submit" disabled={busy}>
            Sign In
          </button>
          <p className="mt-4 has-text-centered">
            New here? <a href="/agent/register">Become an Agent</a>
          </p>
        </form>
      </div>
    </section>
  )
}
