import { useEffect, useState } from 'react'

/**
 * True when the browser says it has no connection, or when this page is the copy the service worker
 * saved (it marks <html data-offline>, the server being out of reach). Always false on the server.
 */
export function useOffline(): boolean {
  const [offline, setOffline] = useState(false)
  useEffect(() => {
    const savedCopy = document.documentElement.dataset.offline === 'true'
    const update = () => setOffline(savedCopy || !navigator.onLine)
    update()
    window.addEventListener('online', update)
    window.addEventListener('offline', update)
    return () => {
      window.removeEventListener('online', update)
      window.removeEventListener('offline', update)
    }
  }, [])
  return offline
}
