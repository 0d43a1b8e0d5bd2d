/** The pages' one way to call the API: JSON in and out, the CSRF token, and the spec's error texts. */
let csrfToken: string | null = null
export const setCsrfToken = (t: string | null) => {
  csrfToken = t
}

export class ApiError extends Error {
  status: number
  body: Record<string, any>
  constructor(status: number, body: Record<string, any>, fallback: string) {
    super(String(body?.error ?? body?.message ?? fallback))
    this.status = status
    this.body = body
  }
}

type Listener = () => void
const activity: Listener[] = []
/** Any API request counts as activity for the idle timer. */
export const onApiActivity = (fn: Listener) => activity.push(fn)

export async function api<T = any>(path: string, opts: { method?: string; body?: unknown; fallbackError?: string } = {}): Promise<T> {
  const method = opts.method ?? (opts.body === undefined ? 'GET' : 'POST')
  const headers: Record<string, string> = { Accept: 'application/json' }
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json'
  if (csrfToken && method !== 'GET') headers['x-csrf-token'] = csrfToken
  let res: Response
  try {
    res = await fetch(path, { method, headers, credentials: 'same-origin', body: opts.body === undefined ? undefined : JSON.stringify(opts.body) })
  } catch {
    throw new ApiError(0, {}, 'Network error. Check your connection and try again.')
  }
  for (const fn of activity) fn()
  const type = res.headers.get('content-type') ?? ''
  const body = type.includes('application/json') ? await res.json().catch(() => ({})) : await res.text()
  if (!res.ok) throw new ApiError(res.status, typeof body === 'object' ? body : { error: body || undefined }, opts.fallbackError ?? 'Request failed')
  return body as T
}

/** Downloads a file the API streams (CSV exports). */
export async function download(path: string, opts: { method?: string; body?: unknown; filename: string }): Promise<void> {
  const headers: Record<string, string> = {}
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json'
  if (csrfToken) headers['x-csrf-token'] = csrfToken
  const res = await fetch(path, { method: opts.method ?? 'GET', headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) })
  if (!res.ok) {
    const body = await res.json().catch(() => ({}))
    throw new ApiError(res.status, body, 'Export failed')
  }
  const blob = await res.blob()
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = opts.filename
  document.body.appendChild(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}
