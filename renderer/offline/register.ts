/**
 * Registers the service worker (renderer/offline/service-worker.js, ADR 0044) once the page has loaded, is hydrated
 * and the browser is idle, so its install (a worker thread started, the public pages and their assets fetched and
 * saved) never competes with the first paint or with hydration for the phone's CPU and connection. Built pages only:
 * in development Vite serves modules that change under it, and there is no /sw.js.
 */
export function registerServiceWorker() {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return
  const register = () => navigator.serviceWorker.register('/sw.js').catch(() => undefined)
  // The timeout: a page that never goes idle (an animation) still gets its worker.
  const whenIdle = () => (typeof requestIdleCallback === 'function' ? requestIdleCallback(register, { timeout: 3000 }) : setTimeout(register, 200))
  if (document.readyState === 'complete') whenIdle()
  else window.addEventListener('load', whenIdle, { once: true })
}
