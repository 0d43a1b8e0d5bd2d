import { useEffect, useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { copyText, formatDate } from '../_shared/format.ts'

interface Key {
  id: number
  name: string
  prefix: string
  createdAt: string
  lastUsedAt: string | null
}
interface WebhookSettings {
  url: string | null
  hasSecret: boolean
}
const fail = (err: unknown, fallback: string) => (err instanceof ApiError && err.message ? err.message : fallback)

/** Reseller API keys and the webhook's signing secret, each shown once when made; the webhook URL. */
export function ApiAccess() {
  const toast = useToast()
  const [keys, setKeys] = useState<Key[] | null>(null)
  const [name, setName] = useState('')
  const [fresh, setFresh] = useState<string | null>(null)
  const [busy, setBusy] = useState<string | null>(null)
  const [url, setUrl] = useState('')
  const [hasSecret, setHasSecret] = useState(false)
  const [freshSecret, setFreshSecret] = useState<string | null>(null)

  useEffect(() => {
    api<{ keys: Key[] }>('/api/reseller/keys')
      .then((r) => setKeys(r.keys))
      .catch((err) => {
        setKeys([])
        toast(fail(err, 'Failed to load API keys'), 'error')
      })
    api<WebhookSettings>('/api/reseller/webhook')
      .then((r) => {
        setUrl(r.url ?? '')
        setHasSecret(r.hasSecret)
      })
      .catch(() => undefined)
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

  async function saveWebhook(e: React.FormEvent) {
    e.preventDefault()
    setBusy('webhook')
    try {
      const r = await api<WebhookSettings & { secret?: string }>('/api/reseller/webhook', {
        method: 'PUT',
        body: { url: url.trim() },
        fallbackError: 'Failed to save the webhook'
      })
      setUrl(r.url ?? '')
      setHasSecret(r.hasSecret)
      if (r.secret) setFreshSecret(r.secret)
      toast(r.secret ? 'Webhook saved. Copy the signing secret now: it is shown only once.' : 'Webhook saved', 'success')
    } catch (err) {
      toast(fail(err, 'Failed to save the webhook'), 'error')
    } finally {
      setBusy(null)
    }
  }

  async function rotateSecret() {
    if (hasSecret && !window.confirm('Make a new signing secret? Webhooks are signed with the new one at once; your software must use it to verify them.'))
      return
    setBusy('rotate')
    try {
      const r = await api<WebhookSettings & { secret: string }>('/api/reseller/webhook/secret', {
        method: 'POST',
        fallbackError: 'Failed to make a new secret'
      })
      setHasSecret(true)
      setFreshSecret(r.secret)
      toast('New signing secret made. Copy it now: it is shown only once.', 'success')
    } catch (err) {
      toast(fail(err, 'Failed to make a new secret'), 'error')
    } finally {
      setBusy(null)
    }
  }

  return (
    <div className="card mb-4">
      <header className="card-header">
        <h2 className="card-header-title">API access</h2>
      </header>
      <div className="card-content">
        <p className="mb-3">
          Sell from your own website or bot with the <a href="/developers">reseller API</a>. Orders are paid from your wallet.
        </p>
        {fresh ? <ShownOnce label="Your new key" value={fresh} testId="new-api-key" onDone={() => setFresh(null)} /> : null}
        <form onSubmit={(e) => void create(e)} className="field has-addons mb-3">
          <div className="control is-expanded">
            <label className="label is-sr-only" htmlFor="key-name">
              Key name
            </label>
            <input
              id="key-name"
              className="input"
              maxLength={60}
              placeholder="Key name, e.g. My website"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <div className="control">
            <button type="submit" className={`button is-primary${busy === 'create' ? ' is-loading' : ''}`} disabled={!!busy}>
              Create key
            </button>
          </div>
        </form>
        <div className="table-container">
          <table className="table is-fullwidth is-narrow" data-testid="api-keys">
            <thead>
              <tr>
                <th>Name</th>
                <th>Key</th>
                <th>Created</th>
                <th>Last used</th>
                <th>
                  <span className="is-sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys?.length ? (
                keys.map((k) => (
                  <tr key={k.id}>
                    <td>{k.name}</td>
                    <td className="is-monospace">{k.prefix}…</td>
                    <td>{formatDate(k.createdAt)}</td>
                    <td>{k.lastUsedAt ? formatDate(k.lastUsedAt) : 'Never'}</td>
                    <td>
                      <button
                        type="button"
                        className={`button is-small is-danger is-light${busy === `revoke-${k.id}` ? ' is-loading' : ''}`}
                        disabled={!!busy}
                        onClick={() => void revoke(k)}
                        aria-label={`Revoke ${k.name}`}>
                        Revoke
                      </button>
                    </td>
                  </tr>
                ))
              ) : (
                <tr>
                  <td colSpan={5}>{keys === null ? 'Loading...' : 'No API keys yet.'}</td>
                </tr>
              )}
            </tbody>
          </table>
        </div>

        <h3 className="title is-6 mt-4">Webhook</h3>
        <form onSubmit={(e) => void saveWebhook(e)}>
          <div className="field">
            <label className="label" htmlFor="webhook-url">
              Webhook URL
            </label>
            <input
              id="webhook-url"
              className="input"
              type="url"
              placeholder="https://example.com/datahub-webhook"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              aria-describedby="webhook-help"
            />
            <p className="help" id="webhook-help">
              We POST each order status change here, signed with the secret below. Leave empty to stop.
            </p>
          </div>
          {freshSecret ? (
            <ShownOnce label="Your signing secret" value={freshSecret} testId="webhook-secret" onDone={() => setFreshSecret(null)} />
          ) : hasSecret ? (
            <p className="help mb-3" data-testid="webhook-secret-set">
              A signing secret is set. It was shown once when it was made; if you no longer have it, make a new one.
            </p>
          ) : null}
          <div className="buttons">
            <button type="submit" className={`button is-primary${busy === 'webhook' ? ' is-loading' : ''}`} disabled={!!busy}>
              Save webhook
            </button>
            {hasSecret ? (
              <button type="button" className={`button${busy === 'rotate' ? ' is-loading' : ''}`} disabled={!!busy} onClick={() => void rotateSecret()}>
                New secret
              </button>
            ) : null}
          </div>
        </form>
      </div>
    </div>
  )
}

/** A secret the server returns only once (an API key, the webhook signing secret): copy it now or lose it. */
function ShownOnce({ label, value, testId, onDone }: { label: string; value: string; testId: string; onDone: () => void }) {
  const toast = useToast()
  return (
    <div className="notification is-warning is-light" role="status">
      <p className="mb-2">
        <strong>{label}</strong> (shown only once):
      </p>
      <p className="is-monospace mb-2" style={{ wordBreak: 'break-all' }} data-testid={testId}>
        {value}
      </p>
      <div className="buttons">
        <button
          type="button"
          className="button is-small"
          onClick={() => void copyText(value).then((ok) => toast(ok ? 'Copied to clipboard' : 'Unable to copy', ok ? 'success' : 'error'))}>
          Copy
        </button>
        <button type="button" className="button is-small" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  )
}
