import { useEffect, useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { copyText, formatDate } from '../_shared/format.ts'

interface Key { id: number; name: string; prefix: string; createdAt: string; lastUsedAt: string | null }
const fail = (err: unknown, fallback: string) => (err instanceof ApiError && err.message ? err.message : fallback)

/** Reseller API keys (shown once) and the webhook URL with its signing secret (issue 13). */
export function ApiAccess() {
  const toast = useToast()
  const [keys, setKeys] = useState<Key[] | null>(null)
  const [name, setName] = useState('')
  const [fresh, setFresh] = useState<string | null>(null)
  const [busy, setBusy] = useState<string | null>(null)
  const [url, setUrl] = useState('')
  const [secret, setSecret] = useState<string | null>(null)

  useEffect(() => {
    api<{ keys: Key[] }>('/api/reseller/keys').then((r) => setKeys(r.keys)).catch((err) => { setKeys([]); toast(fail(err, 'Failed to load API keys'), 'error') })
    api<{ url: string | null; secret: string | null }>('/api/reseller/webhook').then((r) => { setUrl(r.url ?? ''); setSecret(r.secret) }).catch(() => undefined)
  }, [toast])

  async function create(e: React.FormEvent) {
    e.preventDefault()
    if (!name.trim()) return toast('Give the key a name (1 to 60 characters)', 'error')
    setBusy('create')
    try {
      const r = await api<Key & { key: string }>('/api/reseller/keys', { body: { name: name.trim() }, fallbackError: 'Failed to create the key' })
      setFresh(r.key)
      setKeys((k) => [r, ...(k ?? [])])
      setName('')
      toast('API key created. Copy it now: it is shown only once.', 'success')
    } catch (err) {
      toast(fail(err, 'Failed to create the key'), 'error')
    } finally {
      setBusy(null)
    }
  }

  async function revoke(k: Key) {
    if (!window.confirm(`Revoke the key "${k.name}"? Software using it stops working at once.`)) return
    setBusy(`revoke-${k.id}`)
    try {
      await api(`/api/reseller/keys/${k.id}`, { method: 'DELETE', fallbackError: 'Failed to revoke the key' })
      setKeys((list) => (list ?? []).filter((x) => x.id !== k.id))
      toast('API key revoked', 'success')
    } catch (err) {
      toast(fail(err, 'Failed to revoke the key'), 'error')
    } finally {
      setBusy(null)
    }
  }

  async function saveWebhook(e: React.FormEvent, rotateSecret = false) {
    e.preventDefault()
    setBusy(rotateSecret ? 'rotate' : 'webhook')
    try {
      const r = await api<{ url: string | null; secret: string | null }>('/api/reseller/webhook', { method: 'PUT', body: { url: url.trim(), rotateSecret }, fallbackError: 'Failed to save the webhook' })
      setUrl(r.url ?? '')
      setSecret(r.secret)
      toast(rotateSecret ? 'New signing secret created' : 'Webhook saved', 'success')
    } catch (err) {
      toast(fail(err, 'Failed to save the webhook'), 'error')
    } finally {
      setBusy(null)
    }
  }

  return (
    <div className="card mb-4">
      <header className="card-header"><h2 className="card-header-title">API access</h2></header>
      <div className="card-content">
        <p className="mb-3">Sell from your own website or bot with the <a href="/developers">reseller API</a>. Orders are paid from your wallet.</p>
        {fresh ? (
          <div className="notification is-warning is-light" role="status">
            <p className="mb-2"><strong>Your new key</strong> (shown only once):</p>
            <p className="is-monospace mb-2" style={{ wordBreak: 'break-all' }} data-testid="new-api-key">{fresh}</p>
            <div className="buttons">
              <button type="button" className="button is-small" onClick={() => void copyText(fresh).then((ok) => toast(ok ? 'Key copied to clipboard' : 'Unable to copy the key', ok ? 'success' : 'error'))}>Copy</button>
              <button type="button" className="button is-small" onClick={() => setFresh(null)}>Done</button>
            </div>
          </div>
        ) : null}
        <form onSubmit={(e) => void create(e)} className="field has-addons mb-3">
          <div className="control is-expanded">
            <label className="label is-sr-only" htmlFor="key-name">Key name</label>
            <input id="key-name" className="input" maxLength={60} placeholder="Key name, e.g. My website" value={name} onChange={(e) => setName(e.target.value)} />
          </div>
          <div className="control">
            <button type="submit" className={`button is-primary${busy === 'create' ? ' is-loading' : ''}`} disabled={!!busy}>Create key</button>
          </div>
        </form>
        <div className="table-container">
          <table className="table is-fullwidth is-narrow" data-testid="api-keys">
            <thead><tr><th>Name</th><th>Key</th><th>Created</th><th>Last used</th><th><span className="is-sr-only">Actions</span></th></tr></thead>
            <tbody>
              {keys?.length ? keys.map((k) => (
                <tr key={k.id}>
                  <td>{k.name}</td>
                  <td className="is-monospace">{k.prefix}…</td>
                  <td>{formatDate(k.createdAt)}</td>
                  <td>{k.lastUsedAt ? formatDate(k.lastUsedAt) : 'Never'}</td>
                  <td><button type="button" className={`button is-small is-danger is-light${busy === `revoke-${k.id}` ? ' is-loading' : ''}`} disabled={!!busy} onClick={() => void revoke(k)} aria-label={`Revoke ${k.name}`}>Revoke</button></td>
                </tr>
              )) : <tr><td colSpan={5}>{keys === null ? 'Loading...' : 'No API keys yet.'}</td></tr>}
            </tbody>
          </table>
        </div>

        <h3 className="title is-6 mt-4">Webhook</h3>
        <form onSubmit={(e) => void saveWebhook(e)}>
          <div className="field">
            <label className="label" htmlFor="webhook-url">Webhook URL</label>
            <input id="webhook-url" className="input" type="url" placeholder="https://example.com/datahub-webhook" value={url} onChange={(e) => setUrl(e.target.value)} aria-describedby="webhook-help" />
            <p className="help" id="webhook-help">We POST each order status change here, signed with the secret below. Leave empty to stop.</p>
          </div>
          {secret ? (
            <div className="field">
              <label className="label" htmlFor="webhook-secret">Signing secret</label>
              <input id="webhook-secret" className="input is-monospace" readOnly value={secret} />
            </div>
          ) : null}
          <div className="buttons">
            <button type="submit" className={`button is-primary${busy === 'webhook' ? ' is-loading' : ''}`} disabled={!!busy}>Save webhook</button>
            {secret ? <button type="button" className={`button${busy === 'rotate' ? ' is-loading' : ''}`} disabled={!!busy} onClick={(e) => void saveWebhook(e as unknown as React.FormEvent, true)}>New secret</button> : null}
          </div>
        </form>
      </div>
    </div>
  )
}
