/**
 * Registers the service worker (renderer/offline/service-worker.js, ADR 0044) once the page has
 * loaded, so its install (which saves the public pages) never competes with the first paint. Built
 * pages only: in development Vite serves modules that change under it, and there is no /sw.js.
 */
export function registerServiceWorker() {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return
  const register = () => navigator.serviceWorker.register('/sw.js').catch(() => undefined)
  if (document.readyState === 'complete') register()
  else window.addEventListener('load', register, { once: true })
}
