import { useState, type FormEvent } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import type { ShopView } from '../../../server/services/shops/index.ts'

const digits = (v: string) => v.replace(/\D/g, '').slice(0, 12)

/** The shop's link, name, description, WhatsApp number and accent colour; the server checks each. */
export function ShopForm({
  shop,
  palette,
  origin,
  onSaved
}: {
  shop: ShopView | null
  palette: readonly string[]
  origin: string
  onSaved(s: ShopView): void
}) {
  const toast = useToast()
  const [slug, setSlug] = useState(shop?.slug ?? '')
  const [name, setName] = useState(shop?.name ?? '')
  const [description, setDescription] = useState(shop?.description ?? '')
  const [whatsapp, setWhatsapp] = useState(shop?.whatsapp ?? '')
  const [accent, setAccent] = useState(shop?.accent ?? palette[0] ?? '#00796b')
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)

  async function save(e: FormEvent) {
    e.preventDefault()
    setError(null)
    setSaving(true)
    try {
      const res = await api<{ shop: ShopView }>('/api/shops/mine', {
        method: 'PUT',
        body: { slug, name, description, whatsapp, accent },
        fallbackError: 'Failed to save the shop'
      })
      setSlug(res.shop.slug)
      toast(shop && shop.slug !== res.shop.slug ? 'Shop saved. Your old link now leads to the new one.' : 'Shop saved', 'success')
      onSaved(res.shop)
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Failed to save the shop')
    } finally {
      setSaving(false)
    }
  }

  return (
    <form className="box" onSubmit={save} noValidate aria-labelledby="shop-form-title">
      <h2 className="title is-5" id="shop-form-title">
        {shop ? 'Shop details' : 'Open your shop'}
      </h2>
      {error ? (
        <div className="notification is-danger" role="alert" data-testid="shop-form-error">
          {error}
        </div>
      ) : null}
      <div className="field">
        <label className="label" htmlFor="shop-slug">
          Shop link
        </label>
        <div className="field has-addons mb-0">
          <div className="control">
            <span className="button is-static shop-prefix" aria-hidden="true">
              {origin.replace(/^https?:\/\//, '')}/shop/
            </span>
          </div>
          <div className="control is-expanded">
            <input
              id="shop-slug"
              className="input"
              required
              minLength={3}
              maxLength={30}
              autoComplete="off"
              spellCheck={false}
              value={slug}
              onChange={(e) => setSlug(e.target.value.toLowerCase())}
              aria-describedby="shop-slug-help"
            />
          </div>
        </div>
        <p className="help" id="shop-slug-help">
          3 to 30 lowercase letters, digits and hyphens. If you change it later, the old link leads to the new one.
        </p>
      </div>
      <div className="field">
        <label className="label" htmlFor="shop-name">
          Shop name
        </label>
        <input id="shop-name" className="input" required maxLength={60} value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="field">
        <label className="label" htmlFor="shop-description">
          Short description
        </label>
        <textarea
          id="shop-description"
          className="textarea"
          rows={2}
          maxLength={200}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          aria-describedby="shop-description-help"
        />
        <p className="help" id="shop-description-help">
          At most 200 characters; shown on your shop and in link previews.
        </p>
      </div>
      <div className="field">
        <label className="label" htmlFor="shop-whatsapp">
          WhatsApp number
        </label>
        <input
          id="shop-whatsapp"
          className="input"
          inputMode="numeric"
          autoComplete="tel"
          value={whatsapp}
          onChange={(e) => setWhatsapp(digits(e.target.value))}
          aria-describedby="shop-whatsapp-help"
        />
        <p className="help" id="shop-whatsapp-help">
          0XXXXXXXXX or 233XXXXXXXXX; customers can chat with you from your shop. Leave empty to hide it.
        </p>
      </div>
      <fieldset className="field">
        <legend className="label">Accent colour</legend>
        <div className="sf-row" role="group" aria-label="Suggested colours">
          {palette.map((c) => (
            <button
              key={c}
              type="button"
              className="button shop-swatch"
              style={{ background: c }}
              aria-pressed={accent === c}
              aria-label={`Colour ${c}`}
              onClick={() => setAccent(c)}
            />
          ))}
          <label className="is-sr-only" htmlFor="shop-accent">
            Custom colour
          </label>
          <input id="shop-accent" type="color" className="shop-color" value={accent} onChange={(e) => setAccent(e.target.value)} />
          <span className="sf-mono">{accent}</span>
        </div>
        <p className="help">White text must stay readable on it: very light colours are refused.</p>
      </fieldset>
      <div className="shop-preview mb-4" style={{ background: accent, color: '#fff' }} aria-hidden="true">
        {name || 'Your shop name'}
      </div>
      <button type="submit" className={`button is-primary${saving ? ' is-loading' : ''}`} disabled={saving}>
        {shop ? 'Save shop' : 'Open my shop'}
      </button>
    </form>
  )
}
