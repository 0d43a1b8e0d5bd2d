import { useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { usePageContext } from '../../../renderer/usePageContext.tsx'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { formatCedis } from '../../../server/lib/money.ts'
import { Gate } from '../_shared/Gate.tsx'
import { digitsOnly } from '../_shared/format.ts'
import { PayerFields } from '../../_storefront/PayerFields.tsx'
import { isActiveAgent } from '../../../renderer/format.ts'
import type { BulkData } from './+data.ts'
import { PreviewTable, type PreviewLine } from './PreviewTable.tsx'

interface Preview {
  lines: PreviewLine[]
  count: number
  refused: number
  duplicates: number
  total: number
  balance: number
  enough: boolean
  maxLines: number
}
type Source = { text: string } | { csv: string } | { xlsx: string }

const errorText = (err: unknown, fallback: string) => (err instanceof ApiError && err.message ? err.message : fallback)

/** A spreadsheet as base64 (the API takes JSON), or a CSV as its text. */
function readFile(file: File): Promise<Source> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    const xlsx = /\.xlsx$/i.test(file.name)
    reader.onerror = () => reject(new Error('The file could not be read'))
    reader.onload = () => resolve(xlsx ? { xlsx: String(reader.result).replace(/^data:[^,]*,/, '') } : { csv: String(reader.result) })
    if (xlsx) reader.readAsDataURL(file)
    else reader.readAsText(file)
  })
}

export default function Page() {
  const pc = usePageContext() as ReturnType<typeof usePageContext> & { data: BulkData }
  const { agent, balance, maxLines, prefill, recent } = pc.data
  const toast = useToast()
  const [pasted, setPasted] = useState(prefill)
  const [file, setFile] = useState<File | null>(null)
  const [preview, setPreview] = useState<Preview | null>(null)
  // The lines as the agent has them now (fixed in place, dropped); sent as text from then on.
  const [texts, setTexts] = useState<string[]>([])
  const [dirty, setDirty] = useState(false)
  const [allowDuplicates, setAllowDuplicates] = useState(false)
  const [sms, setSms] = useState(false)
  const [busy, setBusy] = useState<'check' | 'pay' | null>(null)
  // Mobile money pays the total in one prompt, like a wallet top-up; the lines go out once it is paid.
  const [payBy, setPayBy] = useState<'wallet' | 'momo'>('wallet')
  const [phone, setPhone] = useState(() => digitsOnly(agent?.phone ?? ''))
  const [network, setNetwork] = useState('MTN')

  async function check(source: Source) {
    setBusy('check')
    try {
      const p = await api<Preview>('/api/bulk/preview', { body: source, fallbackError: 'The lines could not be checked' })
      setPreview(p)
      setTexts(p.lines.map((l) => l.text))
      setDirty(false)
      toast(p.refused ? `${p.refused} of ${p.count} lines need fixing` : `${p.count} lines ready: ${formatCedis(p.total)}`, p.refused ? 'error' : 'success')
    } catch (err) {
      toast(errorText(err, 'The lines could not be checked'), 'error')
    } finally {
      setBusy(null)
    }
  }

  async function first(e: React.FormEvent) {
    e.preventDefault()
    try {
      await check(file ? await readFile(file) : { text: pasted })
    } catch (err) {
      toast(errorText(err, 'The file could not be read'), 'error')
    }
  }

  const edit = (i: number, text: string) => {
    setTexts((t) => t.map((x, j) => (j === i ? text : x)))
    setDirty(true)
  }
  const drop = (indexes: number[]) => {
    const gone = new Set(indexes)
    setTexts((t) => t.filter((_, j) => !gone.has(j)))
    setPreview((p) => (p ? { ...p, lines: p.lines.filter((_, j) => !gone.has(j)) } : p))
    setDirty(true)
  }

  async function pay() {
    if (!preview) return
    setBusy('pay')
    try {
      const momo = payBy === 'momo' ? { pay: 'momo', payerPhone: phone, payerNetwork: network } : {}
      const r = await api<{ batch: { id: number }; payment?: { paymentStatus: string; message: string } }>('/api/bulk', {
        body: { text: texts.join('\n'), allowDuplicates, sms, expectedTotal: preview.total, ...momo },
        fallbackError: 'The bulk order could not be paid'
      })
      if (r.payment) toast(r.payment.message || 'Approve the prompt on your phone.', r.payment.paymentStatus === 'FAILED' ? 'error' : 'info')
      else toast('Bulk order paid. Your bundles are on their way.', 'success')
      location.href = `/agent/bulk/${r.batch.id}`
    } catch (err) {
      toast(errorText(err, 'The bulk order could not be paid'), 'error')
      setBusy(null)
    }
  }

  const refusedIdx = preview ? preview.lines.flatMap((l, i) => (l.error ? [i] : [])) : []
  const blocked = !preview || dirty || refusedIdx.length > 0 || (payBy === 'wallet' && !preview.enough) || (preview.duplicates > 0 && !allowDuplicates)
  return (
    <section>
      <h1 className="title">Bulk Order</h1>
      <p className="subtitle is-6">
        Send bundles to up to {maxLines} numbers at once, paid once from your wallet ({formatCedis(balance)}) or by mobile money.
      </p>
      <Gate agent={agent} />
      {isActiveAgent(agent) ? (
        <>
          <form className="box" onSubmit={(e) => void first(e)} aria-labelledby="bulk-lines-title">
            <h2 className="title is-5" id="bulk-lines-title">
              Your lines
            </h2>
            <div className="field">
              <label className="label" htmlFor="bulk-text">
                Paste one order per line
              </label>
              <div className="control">
                <textarea
                  id="bulk-text"
                  className="textarea is-family-monospace"
                  rows={8}
                  value={pasted}
                  onChange={(e) => setPasted(e.target.value)}
                  placeholder={'0241234567 1GB\n0201234567,TELECEL,2GB'}
                  aria-describedby="bulk-text-help"
                />
              </div>
              <p className="help" id="bulk-text-help">
                Number, then the bundle (1GB, 500MB, its name or its package id); add the network when the number moved networks.
              </p>
            </div>
            <div className="field">
              <label className="label" htmlFor="bulk-file">
                Or upload a CSV or Excel (.xlsx) file
              </label>
              <div className="control">
                <input
                  id="bulk-file"
                  className="input"
                  type="file"
                  accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                  onChange={(e) => setFile(e.target.files?.[0] ?? null)}
                />
              </div>
              <p className="help">
                <a href="/api/bulk/template.csv" download>
                  Download the CSV template
                </a>
              </p>
            </div>
            <button
              type="submit"
              data-testid="bulk-check"
              className={`button is-primary${busy === 'check' ? ' is-loading' : ''}`}
              disabled={!!busy || (!pasted.trim() && !file)}>
              Check lines
            </button>
          </form>

          {preview ? (
            <div className="box" aria-labelledby="bulk-preview-title">
              <h2 className="title is-5" id="bulk-preview-title">
                Check and pay
              </h2>
              <div className="level is-mobile" role="status" aria-live="polite">
                <p>
                  {preview.lines.length} lines, {refusedIdx.length} refused. Total <strong data-testid="bulk-total">{formatCedis(preview.total)}</strong>;
                  wallet {formatCedis(preview.balance)}.
                </p>
              </div>
              {!preview.enough && payBy === 'wallet' ? (
                <p className="notification is-warning is-light">
                  Your wallet does not cover this total. <a href="/agent/wallet">Top up</a> first, or pay by mobile money.
                </p>
              ) : null}
              <PreviewTable lines={preview.lines} texts={texts} onEdit={edit} onDrop={(i) => drop([i])} />
              <div className="buttons">
                <button
                  type="button"
                  data-testid="bulk-recheck"
                  className={`button${busy === 'check' ? ' is-loading' : ''}`}
                  disabled={!!busy || !texts.length}
                  onClick={() => void check({ text: texts.join('\n') })}>
                  Check again
                </button>
                {refusedIdx.length ? (
                  <button type="button" className="button is-light" onClick={() => drop(refusedIdx)}>
                    Drop refused lines
                  </button>
                ) : null}
              </div>
              {preview.duplicates ? (
                <label className="checkbox is-block mb-2">
                  <input type="checkbox" checked={allowDuplicates} onChange={(e) => setAllowDuplicates(e.target.checked)} /> Send repeated lines too (
                  {preview.duplicates})
                </label>
              ) : null}
              <label className="checkbox is-block mb-3">
                <input type="checkbox" checked={sms} onChange={(e) => setSms(e.target.checked)} /> Text each recipient about their bundle
              </label>
              {dirty ? <p className="help mb-2">You changed lines: check them again before paying.</p> : null}
              <fieldset className="field">
                <legend className="label">Pay with</legend>
                <div className="control">
                  <label className="radio mr-4">
                    <input type="radio" name="bulk-pay-by" value="wallet" checked={payBy === 'wallet'} onChange={() => setPayBy('wallet')} /> Wallet
                  </label>
                  <label className="radio">
                    <input
                      type="radio"
                      name="bulk-pay-by"
                      value="momo"
                      data-testid="bulk-pay-momo"
                      checked={payBy === 'momo'}
                      onChange={() => setPayBy('momo')}
                    />{' '}
                    Mobile money
                  </label>
                </div>
              </fieldset>
              {payBy === 'momo' ? <PayerFields idPrefix="bulk" phone={phone} network={network} onPhone={setPhone} onNetwork={setNetwork} /> : null}
              <button
                type="button"
                data-testid="bulk-pay"
                className={`button is-success${busy === 'pay' ? ' is-loading' : ''}`}
                disabled={blocked || !!busy}
                onClick={() => void pay()}>
                Pay {formatCedis(preview.total)} {payBy === 'wallet' ? 'from wallet' : 'by mobile money'}
              </button>
            </div>
          ) : null}

          {recent.length ? (
            <div className="box">
              <h2 className="title is-5">Recent bulk orders</h2>
              <ul>
                {recent.map((b) => (
                  <li key={b.id}>
                    <a href={`/agent/bulk/${b.id}`}>#{b.id}</a>: {b.lines} lines, {formatCedis(b.total)},{' '}
                    {b.status === 'PAID'
                      ? `${b.counts.delivered} delivered${b.counts.failed ? `, ${b.counts.failed} failed` : ''}`
                      : b.status === 'CANCELLED'
                        ? 'cancelled (not paid)'
                        : 'awaiting payment'}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </>
      ) : null}
    </section>
  )
}
