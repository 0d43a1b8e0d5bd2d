import { useState, type FormEvent } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { usePageContext } from '../../../renderer/usePageContext.tsx'
import { digitsOnly } from '../_shared/format.ts'
import { formatCedis } from '../../../renderer/format.ts'
import { passwordScore } from './strength.ts'

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const STRENGTH = ['Very weak', 'Weak', 'Fair', 'Good', 'Strong']

function validate(f: { name: string; phone: string; email: string; password: string }): string | null {
  if (!f.name.trim()) return 'Enter your business/full name'
  if (!/^\d{9,12}$/.test(f.phone)) return 'Enter a valid phone number'
  if (!EMAIL_RE.test(f.email.trim().toLowerCase())) return 'Enter a valid email'
  if (f.password.length < 6) return 'Password must be at least 6 characters'
  return null
}

export default function Page() {
  const pc = usePageContext()
  const { settings, user } = pc
  // An agent's invite link (/agent/register?ref=...): the new agent becomes its sub-agent (ADR 0041).
  const ref = String(pc.urlParsed?.search?.ref ?? '').slice(0, 40)
  const toast = useToast()
  const fee = Number(settings.agentRegistrationFee ?? 0)
  const [form, setForm] = useState({ name: '', phone: '', email: '', password: '' })
  const [show, setShow] = useState(false)
  const [busy, setBusy] = useState(false)
  const [done, setDone] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const score = passwordScore(form.password)
  const set = (k: keyof typeof form) => (v: string) => setForm((f) => ({ ...f, [k]: v }))

  async function submit(e: FormEvent) {
    e.preventDefault()
    const problem = validate(form)
    setError(problem)
    if (problem) return
    setBusy(true)
    try {
      await api('/api/agents/register', {
        body: { ...form, name: form.name.trim(), email: form.email.trim().toLowerCase(), ...(ref ? { ref } : {}) },
        fallbackError: 'Registration failed'
      })
      setDone(true)
      toast('Registration successful! Please log in to your account to complete payment in your portal.', 'success', 6000)
      setTimeout(() => {
        location.href = '/login'
      }, 2000)
    } catch (err) {
      const text = err instanceof ApiError && err.message ? err.message : 'Registration failed'
      setError(text)
      toast(text, 'error')
      setBusy(false)
    }
  }

  return (
    <section className="section">
      <div className="container" style={{ maxWidth: 960 }}>
        <h1 className="title">Become an Agent</h1>
        <p className="subtitle is-6">Resell MTN, Telecel and AirtelTigo data at wholesale prices with your own agent portal.</p>
        {ref ? (
          <div className="notification is-info is-light" data-testid="invite-note">
            You were invited by an agent: you join as their sub-agent and buy at the prices they set for you.
          </div>
        ) : null}
        {user?.role === 'AGENT' ? (
          <div className="notification is-info is-light">
            You are already registered as an agent. <a href="/agent/dashboard">Open your agent portal</a>.
          </div>
        ) : null}
        <div className="notification is-primary is-light" data-testid="fee-banner">
          {fee > 0 ? (
            <>
              One-time registration fee: <strong>{formatCedis(fee)}</strong>. You pay it in your agent portal after you sign in.
            </>
          ) : (
            <>Registration is free right now: no registration fee is due.</>
          )}
        </div>
        <div className="columns">
          <div className="column is-7">
            <form className="box" onSubmit={submit} noValidate aria-describedby={error ? 'register-error' : undefined}>
              {error ? (
                <div className="notification is-danger" id="register-error" role="alert">
                  {error}
                </div>
              ) : null}
              <div className="field">
                <label className="label" htmlFor="reg-name">
                  Business / Full Name
                </label>
                <div className="control">
                  <input id="reg-name" className="input" autoComplete="organization" value={form.name} onChange={(e) => set('name')(e.target.value)} required />
                </div>
              </div>
              <div className="field">
                <label className="label" htmlFor="reg-phone">
                  Phone Number
                </label>
                <div className="control">
                  <input
                    id="reg-phone"
                    className="input"
                    inputMode="numeric"
                    autoComplete="tel"
                    placeholder="0241234567"
                    maxLength={12}
                    value={form.phone}
                    onChange={(e) => set('phone')(digitsOnly(e.target.value))}
                    required
                  />
                </div>
              </div>
              <div className="field">
                <label className="label" htmlFor="reg-email">
                  Email
                </label>
                <div className="control">
                  <input
                    id="reg-email"
                    className="input"
                    type="email"
                    autoComplete="email"
                    value={form.email}
                    onChange={(e) => set('email')(e.target.value)}
                    required
                  />
                </div>
              </div>
              <div className="field">
                <label className="label" htmlFor="reg-password">
                  Password
                </label>
                <div className="field has-addons mb-1">
                  <div className="control is-expanded">
                    <input
                      id="reg-password"
                      className="input"
                      type={show ? 'text' : 'password'}
                      autoComplete="new-password"
                      value={form.password}
                      onChange={(e) => set('password')(e.target.value)}
                      aria-describedby="pw-strength"
                      required
                    />
                  </div>
                  <div className="control">
                    <button type="button" className="button" aria-pressed={show} aria-controls="reg-password" onClick={() => setShow(!show)}>
                      {show ? 'Hide' : 'Show'}
                    </button>
                  </div>
                </div>
                <div id="pw-strength" className="is-flex is-align-items-center" aria-live="polite">
                  {[0, 1, 2, 3].map((i) => (
                    <span
                      key={i}
                      aria-hidden="true"
                      data-testid="strength-dot"
                      className={`tag is-rounded mr-1 ${i < score ? (score >= 3 ? 'is-success' : 'is-warning') : 'is-light'}`}
                      style={{ width: 14, height: 14, padding: 0 }}
                    />
                  ))}
                  <span className="is-size-7 ml-2">Strength: {STRENGTH[score]}</span>
                </div>
                <p className="help">At least 6 characters. Longer with uppercase letters, digits and symbols is stronger.</p>
              </div>
              <button className={`button is-primary is-fullwidth${busy ? ' is-loading' : ''}`} type="submit" disabled={busy || done}>
                Register as Agent
              </button>
              <p className="mt-4 has-text-centered">
                Already registered? <a href="/login">Sign in</a>
              </p>
            </form>
          </div>
          <div className="column is-5">
            <div className="box">
              <h2 className="title is-5">What Happens Next?</h2>
              <ol className="ml-4">
                <li className="mb-2">
                  <strong>Register</strong>: create your agent account with this form.
                </li>
                <li className="mb-2">
                  <strong>Log in</strong>: sign in with your email and password.
                </li>
                {fee > 0 ? (
                  <li className="mb-2">
                    <strong>Pay in your portal</strong>: pay the registration fee from the Payment page.
                  </li>
                ) : null}
                <li>
                  <strong>Start selling</strong>: once an admin approves you (usually 24-48 hours), order data at agent prices.
                </li>
              </ol>
            </div>
          </div>
        </div>
      </div>
    </section>
  )
}
