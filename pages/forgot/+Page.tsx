import { useState, type FormEvent } from 'react'
import { api, ApiError } from '../../renderer/api.ts'
import { whatsappLink } from '../../renderer/ui/links.ts'
import { usePageContext } from '../../renderer/usePageContext.tsx'
import type { ForgotData } from './+data.ts'

const RESET_ID_KEY = 'rdh_reset_identifier'

export default function Page() {
  const pc = usePageContext() as ReturnType<typeof usePageContext> & { data: ForgotData }
  const available = pc.data?.available !== false
  const settings = pc.settings
  const [identifier, setIdentifier] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [sent, setSent] = useState<string | null>(null)
  const support = whatsappLink(settings?.whatsappNumber)

  async function submit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    if (!identifier.trim()) {
      setError('Enter your phone number or email')
      return
    }
    setBusy(true)
    try {
      const res = await api<{ message: string }>('/api/auth/forgot', { body: { identifier: identifier.trim() }, fallbackError: 'Could not send a code' })
      try {
        sessionStorage.setItem(RESET_ID_KEY, identifier.trim())
      } catch {
        /* storage unavailable: the reset page asks again */
      }
      setSent(res.message)
    } catch (err) {
      setError(err instanceof ApiError && err.message ? err.message : 'Could not send a code')
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="section">
      <div className="container" style={{ maxWidth: 420 }}>
        <h1 className="title">Forgot your password?</h1>
        {!available ? (
          <div className="box">
            <div className="notification is-info" role="status" data-reset-by-support>
              Password reset is done by support. Please contact support to reset your password.
            </div>
            {support ? (
              <a className="button is-success is-fullwidth" href={support} target="_blank" rel="noreferrer">
                Contact support on WhatsApp
              </a>
            ) : null}
            <p className="mt-4 has-text-centered">
              <a href="/login">Back to Sign In</a>
            </p>
          </div>
        ) : sent ? (
          <div className="box">
            <div className="notification is-success" role="status" data-reset-sent>
              {sent}
            </div>
            <p className="mb-4">The code is valid for 10 minutes. Enter it with your new password on the next page.</p>
            <a className="button is-primary is-fullwidth" href="/reset">
              Enter the code
            </a>
            <p className="mt-4 has-text-centered">
              <a href="/login">Back to Sign In</a>
            </p>
          </div>
        ) : (
          <form className="box" onSubmit={submit} noValidate aria-describedby={error ? 'forgot-error' : 'forgot-help'}>
            {error ? (
              <div className="notification is-danger" id="forgot-error" role="alert">
                {error}
              </div>
            ) : null}
            <p className="mb-4" id="forgot-help">
              Enter the phone number or email of your account. We will send a 6-digit code to the account's phone (and email).
            </p>
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
                  inputMode="email"
                  value={identifier}
                  onChange={(e) => setIdentifier(e.target.value)}
                  required
                />
              </div>
            </div>
            <button className={`button is-primary is-fullwidth${busy ? ' is-loading' : ''}`} type="submit" disabled={busy}>
              Send code
            </button>
            <p className="mt-4 is-size-7 has-text-grey">
              Agents: this resets your web password. Your USSD PIN is not changed; if you have forgotten it too, reset it under Profile after you sign in.
            </p>
            <p className="mt-4 has-text-centered">
              <a href="/login">Back to Sign In</a>
            </p>
          </form>
        )}
      </div>
    </section>
  )
}
