// An agent's shop for the benches that weigh or score the public pages: made over the API when missing.

/** A signed-in JSON client (session cookie + CSRF token), enough to set up the demo shop over the API. */
export async function session(base: string, email: string, password: string) {
  let cookie = ''
  let csrf = ''
  const call = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(base + p, {
      method,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', Cookie: cookie, 'x-csrf-token': csrf },
      body: body === undefined ? undefined : JSON.stringify(body)
    })
    const set = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    if (set) cookie = set
    return { status: res.status, body: (await res.json().catch(() => null)) as any }
  }
  const login = await call('POST', '/api/auth/login', { email, password })
  csrf = login.body?.csrfToken ?? ''
  return { call, ok: login.status === 200 }
}

/** The shop at /shop/<slug>: a free-fee agent registered, approved by the admin, its shop opened and its bundles priced. */
export async function ensureShop(base: string, slug: string, admin: { email: string; password: string }) {
  if ((await fetch(`${base}/api/shops/${slug}`)).status === 200) return
  // A first start opens a sample business with an agent fee: the demo agent registers free, as the bench assumes.
  await (await session(base, admin.email, admin.password)).call('PUT', '/api/settings', { agentRegistrationFee: 0 })
  const email = `${slug}-agent-${Date.now()}@datahub.local`
  const password = 'demo-shop-agent-pass-123'
  const reg = await fetch(`${base}/api/agents/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Lighthouse Data', phone: `024${String(Date.now()).slice(-7)}`, email, password })
  })
  if (reg.status >= 300) throw new Error(`agent registration for the shop page failed (${reg.status}): is the agent fee 0 on this server?`)
  const adminSession = await session(base, admin.email, admin.password)
  const agents = await adminSession.call('GET', '/api/admin/agents')
  const id = (agents.body?.agents ?? []).find((a: any) => a.email === email)?.agent?.id
  await adminSession.call('PATCH', `/api/agents/${id}/approve`)
  const agent = await session(base, email, password)
  await agent.call('PUT', '/api/shops/mine', { slug, name: 'Lighthouse Data', description: 'Bundles for every network', whatsapp: '0241234567' })
  const mine = await agent.call('GET', '/api/shops/mine')
  const prices = (mine.body?.prices ?? []).map((l: any) => ({ packageId: l.packageId, price: l.ceiling }))
  const saved = await agent.call('PUT', '/api/shops/mine/prices', { prices })
  if (saved.status !== 200) throw new Error(`could not set up /shop/${slug}: ${JSON.stringify(saved.body)}`)
}
