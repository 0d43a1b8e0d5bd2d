import { useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'

/** "Log out everywhere": every other browser and app signed in to this account is signed out; this one stays. */
export function SessionsCard() {
  const toast = useToast()
  const [busy, setBusy] = useState(false)

  async function run() {
    setBusy(true)
    try {
      await api('/api/auth/logout-everywhere', { method: 'POST', body: {}, fallbackError: 'Failed to sign out other sessions' })
      toast('Signed out everywhere else', 'success')
    } catch (err) {
      toast(err instanceof ApiError && err.message ? err.message : 'Failed to sign out other sessions', 'error')
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="card mb-4">
      <header className="card-header">
        <h2 className="card-header-title">Sessions</h2>
      </header>
      <div className="card-content">
        <p className="mb-3">Lost a phone, or signed in on a shared computer? Sign out every other browser and app using your account.</p>
        <button type="button" className={`button is-warning${busy ? ' is-loading' : ''}`} disabled={busy} onClick={() => void run()} data-logout-everywhere>
          Log out everywhere else
        </button>
      </div>
    </div>
  )
}
