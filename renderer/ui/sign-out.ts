import { api } from '../api.ts'

/** Ends the session on the server and goes to the login page, with an optional message for it. */
export async function signOut(message?: string) {
  await api('/api/auth/logout', { method: 'POST' }).catch(() => {})
  try {
    if (message) sessionStorage.setItem('rdh_flash', message)
    localStorage.removeItem('rdh_user')
  } catch {
    /* storage unavailable */
  }
  location.href = '/login'
}
