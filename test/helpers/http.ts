import { ADMIN, app } from './server.ts'

export interface Res<T = any> {
  status: number
  body: T
  text: string
  headers: Headers
}

/**
 * A browser-like client: keeps the session cookie and sends the CSRF token the login gave it.
 * `bearer` switches it to token auth like a non-browser client.
 */
export class Client {
  cookies = new Map<string, string>()
  csrf: string | null = null
  bearer: string | null = null
  base: string
  constructor(base = app().url) {
    this.base = base
  }

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Res<T>> {
    const h: Record<string, string> = { Accept: 'application/json', ...headers }
    if (body !== undefined && typeof body !== 'string') h['Content-Type'] = 'application/json'
    if (body !== undefined && typeof body === 'string' && !h['Content-Type']) h['Content-Type'] = 'application/json'
    if (this.cookies.size) h.Cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    if (this.csrf && method !== 'GET') h['x-csrf-token'] ??= this.csrf
    if (this.bearer) h.Authorization = `Bearer ${this.bearer}`
    const res = await fetch(this.base + path, {
      method,
      headers: h,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      redirect: 'manual'
    })
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';')
      const i = pair!.indexOf('=')
      const name = pair!.slice(0, i)
      const value = pair!.slice(i + 1)
      if (/expires=Thu, 01 Jan 1970/i.test(c) || value === '') this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    const text = await res.text()
    let parsed: any = text
    if ((res.headers.get('content-type') ?? '').includes('json')) parsed = text ? JSON.parse(text) : null
    return { status: res.status, body: parsed, text, headers: res.headers }
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, undefined, headers)
  }
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, body ?? {}, headers)
  }
  put<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PUT', path, body ?? {}, headers)
  }
  patch<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PATCH', path, body ?? {}, headers)
  }
  delete<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('DELETE', path, undefined, headers)
  }

  async login(email: string, password: string): Promise<Res> {
    const res = await this.post('/api/auth/login', { email, password })
    if (res.status === 200) this.csrf = res.body.csrfToken
    return res
  }
}

export async function adminClient(base?: string): Promise<Client> {
  const c = new Client(base)
  const res = await c.login(ADMIN.email, ADMIN.password)
  if (res.status !== 200) throw new Error(`admin login failed: ${res.status} ${res.text}`)
  return c
}
