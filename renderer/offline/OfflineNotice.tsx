import { useOffline } from './useOffline.ts'

export const OFFLINE_TEXT = 'You are offline. This is the copy of this page saved on this device: prices may have changed, and buying needs a connection.'

/** The public pages' clear offline state, announced when it appears. */
export function OfflineNotice() {
  const offline = useOffline()
  return (
    <div role="status" data-testid="offline-notice">
      {offline ? <p className="notification is-warning mb-0 has-text-centered is-radiusless">{OFFLINE_TEXT}</p> : null}
    </div>
  )
}
