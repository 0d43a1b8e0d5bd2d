// The service worker (ADR 0044), served as /sw.js. scripts/service-worker-plugin.ts writes it into the client
// build with BUILD_VERSION (a hash of that build's files) and LAZY_ASSETS filled in, so every deploy that changes
// a file installs a new worker with a cache of its own. Plain JavaScript: it runs in the worker as written.
const BUILD_VERSION = '__BUILD_VERSION__'
const CACHE_PREFIX = 'datahub-'
const CACHE = `${CACHE_PREFIX}${BUILD_VERSION}`
// The shop's public pages (server/http/site-meta.ts PUBLIC_PAGES), saved at install so they open offline
// even when the visitor only ever saw one of them.
const PAGES = ['/', '/data-services', '/afa', '/agent/register', '/login']
// Code those pages load only when it is used (the payment dialog, the agents' wallet payment), listed by the build.
const LAZY_ASSETS = __LAZY_ASSETS__
// Set by the server on a visitor's page only; a signed-in page or any other answer never carries it.
const SHAREABLE_HEADER = 'x-offline-copy'
const ASSET = /^\/(assets|icons)\//

/** A page anyone would be sent the same way: the server said so, and it is a whole, good answer. */
const shareable = (res) => res.ok && res.type === 'basic' && res.headers.get(SHAREABLE_HEADER) === 'public'

async function keepPage(cache, path) {
  // Without cookies: the visitor's copy even when the installing tab is signed in.
  const res = await fetch(path, { credentials: 'omit', cache: 'no-store' })
  if (!shareable(res)) return
  await cache.put(path, res.clone())
  const html = await res.text()
  const assets = new Set([...html.matchAll(/(?:src|href)="(\/(?:assets|icons)\/[^"]+)"/g)].map((m) => m[1]))
  await Promise.all([...assets].map(async (a) => (await cache.match(a)) || cache.add(a)))
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE)
      // One page that cannot be saved (the server busy, a page gone) leaves the others usable.
      await Promise.all([...PAGES.map((p) => keepPage(cache, p).catch(() => undefined)), ...LAZY_ASSETS.map((a) => cache.add(a).catch(() => undefined))])
      // Safe to take over at once: pages are asked of the network first, and assets are immutable by name.
      await self.skipWaiting()
    })()
  )
})

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key.startsWith(CACHE_PREFIX) && key !== CACHE) await caches.delete(key)
      await self.clients.claim()
    })()
  )
})

/** The saved copy, marked so the page says it is offline (the mark sits outside React's root). */
async function offlineCopy(res) {
  const html = (await res.text()).replace('<html ', '<html data-offline="true" ')
  const headers = new Headers(res.headers)
  // The text is already decoded and now a different length.
  headers.delete('content-encoding')
  headers.delete('content-length')
  return new Response(html, { status: 200, headers })
}

async function page(request, url) {
  const key = url.pathname + url.search
  try {
    const res = await fetch(request)
    if (shareable(res)) {
      const copy = res.clone()
      caches
        .open(CACHE)
        .then((c) => c.put(key, copy))
        .catch(() => undefined)
    }
    return res
  } catch (err) {
    const cache = await caches.open(CACHE)
    const saved = (await cache.match(key)) || (await cache.match(url.pathname, { ignoreSearch: true })) || (await cache.match('/'))
    if (!saved) throw err
    return offlineCopy(saved)
  }
}

async function asset(request) {
  const cache = await caches.open(CACHE)
  const saved = await cache.match(request)
  if (saved) return saved
  const res = await fetch(request)
  if (res.ok && res.type === 'basic') cache.put(request, res.clone()).catch(() => undefined)
  return res
}

self.addEventListener('fetch', (event) => {
  const request = event.request
  if (request.method !== 'GET') return
  const url = new URL(request.url)
  if (url.origin !== self.location.origin) return
  if (request.mode === 'navigate') event.respondWith(page(request, url))
  else if (ASSET.test(url.pathname)) event.respondWith(asset(request))
  // Everything else (the API with every payment answer, the simulators, the manifest) goes to the network untouched.
})
