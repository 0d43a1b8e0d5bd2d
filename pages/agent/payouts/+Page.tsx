import { useEffect, useRef, useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { usePageContext } from '../../../renderer/usePageContext.tsx'
import { formatCedis, roundGhs } from '../../../server/lib/money.ts'
import { Gate } from '../_shared/Gate.tsx'
import { formatDate } from '../_shared/format.ts'
import { MOMO_LABEL, NETWORKS } from '../../../renderer/format.ts'
import { isActiveAgent } from '../../../renderer/format.ts'
import type { PayoutsData } from './+data.ts'
import { OPEN_PAYOUT, PAYOUT_STATUS, PayoutStatusTag, type PayoutsView } from './status.tsx'

const errorText = (err: unknown, fallback: string) => (err instanceof ApiError && err.message ? err.message : fallback)

/** Agent: available earnings, the verified payout number, a withdrawal, and the history. */
export default function Page() {
  const pc = usePageContext() as ReturnType<typeof usePageContext> & { data: PayoutsData }
  const { agent } = pc.data
  const [view, setView] = useState<PayoutsView | null>(pc.data.payouts)
  // The latest view for the polling timer's callback (its closure would keep an old one).
  const latest = useRef(view)
  latest.current = view
  const [refreshing, setRefreshing] = useState(false)
  const toast = useToast()

  async function reload(quiet = false) {
    if (!quiet) setRefreshing(true)
    try {
      const next = await api<PayoutsView>('/api/payouts')
      // Say so when a payout on its way reaches its end (toasts are announced to screen readers).
      for (const p of next.payouts) {
        const before = latest.current?.payouts.find((x) => x.id === p.id)
        if (before && before.status !== p.status && OPEN_PAYOUT.includes(before.status) && !OPEN_PAYOUT.includes(p.status)) {
          toast(`Payout of ${formatCedis(p.amount)}: ${PAYOUT_STATUS[p.status]?.label ?? p.status}`, p.status === 'SUCCESS' ? 'success' : 'error')
        }
      }
      setView(next)
    } catch (err) {
      if (!quiet) toast(errorText(err, 'Failed to load payouts'), 'error')
    } finally {
      if (!quiet) setRefreshing(false)
    }
  }

  // While a payout is on its way, its status is read again every few seconds.
  const open = !!view?.payouts.some((p) => OPEN_PAYOUT.includes(p.status) && p.status !== 'PENDING_APPROVAL')
  useEffect(() => {
    if (!open) return
    const t = setInterval(() => void reload(true), 3000)
    return () => clearInterval(t)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open])

  return (
    <section>
      <h1 className="title">Payouts</h1>
      <p className="subtitle is-6">Withdraw your shop earnings to your mobile money number.</p>
      <Gate agent={agent} />
      {isActiveAgent(agent) && view ? (
        <>
          {view.simulator ? <p className="notification is-info is-light">Demo: transfers are simulated; no real money moves.</p> : null}
          <div className="columns">
            <div className="column is-one-third">
              <div className="box has-text-centered">
                <p className="heading">Available earnings</p>
                <p className={`stat-value${view.available < 0 ? ' has-text-danger' : ''}`} data-testid="earnings-available">
                  {formatCedis(view.available)}
                </p>
                {view.available < 0 ? <p className="help">Below zero after a refund; your next margins make it up.</p> : null}
              </div>
            </div>
            <div className="column">
              <PayoutNumber view={view} onChange={() => void reload()} />
            </div>
          </div>
          <Withdraw view={view} onDone={() => void reload()} />
          <History view={view} refreshing={refreshing} onRefresh={() => void reload()} />
        </>
      ) : null}
    </section>
  )
}

function PayoutNumber({ view, onChange }: { view: PayoutsView; onChange(): void }) {
  const toast = useToast()
  const [network, setNetwork] = useState('MTN')
  const [phone, setPhone] = useState('')
  const [name, setName] = useState('')
  const [busy, setBusy] = useState(false)
  const [editing, setEditing] = useState(false)
  const n = view.number

  async function add(e: React.FormEvent) {
    e.preventDefault()
    if (!/^\d{9,12}$/.test(phone.replace(/\s/g, ''))) return toast('Enter the mobile money number, digits only', 'error')
    if (name.trim().length < 2) return toast('Enter the account name registered on the number', 'error')
    setBusy(true)
    try {
      const saved = await api<{ phone: string; accountName: string }>('/api/payouts/number', {
        body: { network, phone: phone.replace(/\s/g, ''), accountName: name.trim() },
        fallbackError: 'Could not verify the number'
      })
      toast(`Payout number verified: ${saved.phone} (${saved.accountName})`, 'success')
      setEditing(false)
      setPhone('')
      setName('')
      onChange()
    } catch (err) {
      toast(errorText(err, 'Could not verify the number'), 'error')
    } finally {
      setBusy(false)
    }
  }

  async function remove() {
    if (!confirm('Remove this payout number? You will need to add and verify a number before your next withdrawal.')) return
    setBusy(true)
    try {
      await api('/api/payouts/number', { method: 'DELETE', fallbackError: 'Could not remove the number' })
      toast('Payout number removed', 'success')
      onChange()
    } catch (err) {
      toast(errorText(err, 'Could not remove the number'), 'error')
    } finally {
      setBusy(false)
    }
  }

  if (n && !editing) {
    return (
      <div className="box" data-testid="payout-number">
        <h2 className="title is-5">Payout number</h2>
        <p>
          <strong>{n.networkLabel}</strong> {n.phone} <span className="tag is-success ml-1">Verified</span>
        </p>
        <p className="help mb-3">Registered name: {n.accountName}</p>
        <div className="buttons">
          <button type="button" className="button is-small" onClick={() => setEditing(true)} disabled={busy}>
            Change number
          </button>
          <button type="button" className={`button is-small is-danger is-outlined${busy ? ' is-loading' : ''}`} onClick={() => void remove()} disabled={busy}>
            Remove
          </button>
        </div>
      </div>
    )
  }
  return (
    <form className="box" onSubmit={(e) => void add(e)} aria-labelledby="number-title" data-testid="payout-number-form">
      <h2 className="title is-5" id="number-title">
        {n ? 'Change payout number' : 'Add a payout number'}
      </h2>
      <p className="help mb-3">We check the number with the mobile money network before any money is sent to it.</p>
      <div className="columns is-multiline">
        <div className="column is-4-tablet is-12-mobile">
          <div className="field">
            <label className="label" htmlFor="pn-network">
              Network
            </label>
            <div className="select is-fullwidth">
              <select id="pn-network" value={network} onChange={(e) => setNetwork(e.target.value)}>
                {NETWORKS.map((v) => (
                  <option key={v} value={v}>
                    {MOMO_LABEL[v]}
                  </option>
                ))}
              </select>
            </div>
          </div>
        </div>
        <div className="column is-4-tablet is-12-mobile">
          <div className="field">
            <label className="label" htmlFor="pn-phone">
              Mobile money number
            </label>
            <input
              id="pn-phone"
              className="input"
              type="tel"
              inputMode="numeric"
              autoComplete="tel"
              maxLength={12}
              value={phone}
              onChange={(e) => setPhone(e.target.value.replace(/\D/g, ''))}
              required
            />
          </div>
        </div>
        <div className="column is-4-tablet is-12-mobile">
          <div className="field">
            <label className="label" htmlFor="pn-name">
              Account name
            </label>
            <input id="pn-name" className="input" autoComplete="name" maxLength={120} value={name} onChange={(e) => setName(e.target.value)} required />
          </div>
        </div>
      </div>
      <div className="buttons">
        <button type="submit" className={`button is-primary${busy ? ' is-loading' : ''}`} disabled={busy} data-testid="payout-number-save">
          Verify and save
        </button>
        {n ? (
          <button type="button" className="button" onClick={() => setEditing(false)} disabled={busy}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  )
}

function Withdraw({ view, onDone }: { view: PayoutsView; onDone(): void }) {
  const toast = useToast()
  const [amount, setAmount] = useState('')
  const [busy, setBusy] = useState(false)
  const { minimum, fee, approvalAbove } = view.settings
  const value = Number(amount)
  const valid = amount !== '' && Number.isFinite(value) && value > 0

  async function submit(e: React.FormEvent) {
    e.preventDefault()
    if (!valid || value < minimum) return toast(`The minimum payout is ${formatCedis(minimum)}`, 'error')
    setBusy(true)
    try {
      const p = await api<{ status: string; amount: number }>('/api/payouts', { body: { amount: value }, fallbackError: 'Payout request failed' })
      toast(
        p.status === 'PENDING_APPROVAL'
          ? `Payout of ${formatCedis(p.amount)} requested. An admin approves payouts above ${formatCedis(approvalAbove)}.`
          : `Payout of ${formatCedis(p.amount)} is on its way to ${view.number?.phone}.`,
        'success'
      )
      setAmount('')
      onDone()
    } catch (err) {
      toast(errorText(err, 'Payout request failed'), 'error')
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="box" onSubmit={(e) => void submit(e)} aria-labelledby="withdraw-title">
      <h2 className="title is-5" id="withdraw-title">
        Withdraw
      </h2>
      {!view.number ? <p className="notification is-warning is-light">Add and verify a payout number first.</p> : null}
      <div className="field">
        <label className="label" htmlFor="wd-amount">
          Amount to receive (GH₵)
        </label>
        <div className="control">
          <input
            id="wd-amount"
            className="input"
            type="number"
            inputMode="decimal"
            min={minimum}
            step="0.01"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            disabled={!view.number || busy}
            aria-describedby="wd-help"
          />
        </div>
        <p className="help" id="wd-help" aria-live="polite">
          Minimum {formatCedis(minimum)}. Fee {formatCedis(fee)} per payout.
          {valid ? ` You receive ${formatCedis(value)}; ${formatCedis(roundGhs(value + fee))} is taken from your earnings.` : ''}
          {valid && value > approvalAbove ? ' Above ' + formatCedis(approvalAbove) + ' an admin approves the payout first.' : ''}
        </p>
      </div>
      <button type="submit" className={`button is-primary${busy ? ' is-loading' : ''}`} disabled={!view.number || busy} data-testid="withdraw-submit">
        Request payout
      </button>
    </form>
  )
}

function History({ view, refreshing, onRefresh }: { view: PayoutsView; refreshing: boolean; onRefresh(): void }) {
  return (
    <div className="box">
      <div className="is-flex is-justify-content-space-between is-align-items-center mb-3">
        <h2 className="title is-5 mb-0">Payout history</h2>
        <button type="button" className={`button is-small${refreshing ? ' is-loading' : ''}`} onClick={onRefresh} disabled={refreshing}>
          Refresh
        </button>
      </div>
      <div className="table-container">
        <table className="table is-stacked-mobile is-fullwidth is-striped" aria-busy={refreshing} data-testid="payout-history">
          <thead>
            <tr>
              <th>Date</th>
              <th className="has-text-right">Amount</th>
              <th className="has-text-right">Fee</th>
              <th>To</th>
              <th>Status</th>
              <th>Details</th>
            </tr>
          </thead>
          <tbody>
            {view.payouts.length ? (
              view.payouts.map((p) => (
                <tr key={p.id} data-payout={p.id}>
                  <td data-label="Date">{formatDate(p.createdAt)}</td>
                  <td data-label="Amount" className="has-text-right">
                    {formatCedis(p.amount)}
                  </td>
                  <td data-label="Fee" className="has-text-right">
                    {formatCedis(p.fee)}
                  </td>
                  <td data-label="To">
                    {p.network} {p.phone}
                  </td>
                  <td data-label="Status">
                    <PayoutStatusTag status={p.status} />
                  </td>
                  <td data-label="Details">{p.message ?? ''}</td>
                </tr>
              ))
            ) : (
              <tr>
                <td colSpan={6} className="has-text-centered">
                  No payouts yet.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </div>
  )
}
