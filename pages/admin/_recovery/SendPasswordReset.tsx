import { useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'

/**
 * "Send password reset" on the users and agents pages: the code goes to the account's own phone (and
 * email); the admin never sees or sets a password. Two steps, so a stray click sends nothing.
 */
export function SendPasswordReset({ userId, label }: { userId: number; label: string }) {
  const toast = useToast()
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)

  async function send() {
    setBusy(true)
    try {
      const res = await api<{ message: string }>(`/api/admin/users/${userId}/password-reset`, {
        method: 'POST',
        body: {},
        fallbackError: 'Failed to send password reset'
      })
      toast(res.message, 'success')
      setConfirming(false)
    } catch (err) {
      toast(err instanceof ApiError && err.message ? err.message : 'Failed to send password reset', 'error')
    } finally {
      setBusy(false)
    }
  }

  if (!confirming) {
    return (
      <button
        type="button"
        className="button is-small is-light"
        data-send-reset={userId}
        aria-label={`Send password reset to ${label}`}
        onClick={() => setConfirming(true)}>
        Send password reset
      </button>
    )
  }
  return (
    <div className="buttons are-small mb-0" role="group" aria-label={`Send a reset code to ${label}?`}>
      <span className="is-size-7 mr-2">Send a code to their phone? Their sessions end.</span>
      <button type="button" className={`button is-warning${busy ? ' is-loading' : ''}`} data-confirm-reset={userId} disabled={busy} onClick={() => void send()}>
        Send
      </button>
      <button type="button" className="button" disabled={busy} onClick={() => setConfirming(false)}>
        Cancel
      </button>
    </div>
  )
}
