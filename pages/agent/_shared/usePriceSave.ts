import { useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'

/** Saving a price editor's lines (shop bundle and checker prices, sub-agent prices): PUT the body, hand back the server's lines, say how it went. */
export function usePriceSave<L>(url: string, onSaved: (lines: L[]) => void) {
  const toast = useToast()
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  async function save(prices: ({ packageId: number } | { productId: number })[]) {
    setError(null)
    setSaving(true)
    try {
      const res = await api<{ prices: L[] }>(url, { method: 'PUT', body: { prices }, fallbackError: 'Failed to save prices' })
      onSaved(res.prices)
      toast('Prices saved', 'success')
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Failed to save prices')
    } finally {
      setSaving(false)
    }
  }
  return { save, saving, error }
}
