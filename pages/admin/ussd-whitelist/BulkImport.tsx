import { useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { numbersFromCsv, numbersFromText } from './parse.ts'
import { useEscape } from '../../../renderer/ui/useEscape.ts'
import { useFocusTrap } from '../../../renderer/ui/useFocusTrap.ts'

const CHUNK = 2000

interface Results {
  added: number
  skipped: number
  errors: Array<{ phoneNumber: string; error: string }>
}

/** Bulk Import modal: numbers from text (newline, comma, semicolon) or the first column of a CSV file. */
export function BulkImport({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const toast = useToast()
  const [mode, setMode] = useState<'text' | 'csv'>('text')
  const [text, setText] = useState('')
  const [file, setFile] = useState<File | null>(null)
  const [busy, setBusy] = useState(false)

  useEscape(onClose, !busy)
  const trapRef = useFocusTrap(true)

  async function submit() {
    let numbers: string[]
    if (mode === 'text') {
      if (!text.trim()) return toast('Please enter phone numbers', 'error')
      numbers = numbersFromText(text)
    } else {
      if (!file) return toast('Please select a CSV file', 'error')
      numbers = numbersFromCsv(await file.text())
    }
    if (!numbers.length) return toast('No valid phone numbers found', 'error')
    setBusy(true)
    try {
      // The API takes JSON bodies up to 100 kB: big lists go in slices, and the counts add up.
      const results: Results = { added: 0, skipped: 0, errors: [] }
      for (let i = 0; i < numbers.length; i += CHUNK) {
        const part = await api<{ results: Results }>('/api/ussd-whitelist/bulk-import', { body: { phoneNumbers: numbers.slice(i, i + CHUNK) } })
        results.added += part.results.added
        results.skipped += part.results.skipped
        results.errors.push(...part.results.errors)
      }
      const errors = results.errors.length
      toast(`Bulk import completed! Added: ${results.added}, Skipped: ${results.skipped}, Errors: ${errors}`, errors ? 'error' : 'success')
      onDone()
    } catch (err) {
      toast(`Failed to import numbers: ${err instanceof ApiError ? err.message : String(err)}`, 'error')
    } finally {
      setBusy(false)
    }
  }

  return (
    <div ref={trapRef} className="modal is-active" role="dialog" aria-modal="true" aria-labelledby="bulk-title">
      <div className="modal-background" onClick={() => !busy && onClose()} />
      <div className="modal-card">
        <header className="modal-card-head">
          <p className="modal-card-title" id="bulk-title">
            Bulk Import
          </p>
          <button className="delete" aria-label="Close" onClick={onClose} disabled={busy} />
        </header>
        <section className="modal-card-body">
          <div className="field">
            <div className="control" role="radiogroup" aria-label="Import from">
              <label className="radio mr-4">
                <input type="radio" name="bulk-mode" checked={mode === 'text'} onChange={() => setMode('text')} /> Paste numbers
              </label>
              <label className="radio">
                <input type="radio" name="bulk-mode" checked={mode === 'csv'} onChange={() => setMode('csv')} /> CSV file
              </label>
            </div>
          </div>
          {mode === 'text' ? (
            <div className="field">
              <label className="label" htmlFor="bulk-text">
                Phone numbers
              </label>
              <textarea
                id="bulk-text"
                className="textarea"
                rows={6}
                placeholder={'0241234567\n233201234567, 0551234567'}
                value={text}
                onChange={(e) => setText(e.target.value)}
              />
              <p className="help">One per line, or separated by commas or semicolons. Format 0XXXXXXXXX or 233XXXXXXXXX.</p>
            </div>
          ) : (
            <div className="field">
              <label className="label" htmlFor="bulk-file">
                CSV file
              </label>
              <input id="bulk-file" className="input" type="file" accept=".csv,text/csv,text/plain" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
              <p className="help">The first column of each line is read.</p>
            </div>
          )}
        </section>
        <footer className="modal-card-foot buttons">
          <button className={`button is-primary${busy ? ' is-loading' : ''}`} onClick={() => void submit()} disabled={busy}>
            Import
          </button>
          <button className="button" onClick={onClose} disabled={busy}>
            Cancel
          </button>
        </footer>
      </div>
    </div>
  )
}
