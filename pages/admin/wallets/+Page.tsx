import { useEffect, useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { usePageContext } from '../../../renderer/usePageContext.tsx'
import { formatCedis } from '../../../server/lib/money.ts'
import { Statement } from '../../agent/wallet/Statement.tsx'
import { RefundDialog } from '../../../renderer/ui/RefundDialog.tsx'
import type { AdminWalletData } from './+data.ts'

/** Admin: one agent's wallet: balance, statement, and a credit or debit with a required reason. */
export default function Page() {
  const { agentId } = (usePageContext() as unknown as { data: AdminWalletData }).data
  const toast = useToast()
  const [info, setInfo] = useState<{ agent: { id: number; name: string; phone: string }; balance: number } | null>(null)
  const [missing, setMissing] = useState(false)
  const [amount, setAmount] = useState('')
  const [direction, setDirection] = useState<'CREDIT' | 'DEBIT'>('CREDIT')
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  const [version, setVersion] = useState(0)

  useEffect(() => {
    if (!agentId) return setMissing(true)
    api<any>(`/api/wallet/agents/${agentId}?limit=1`)
      .then((d) => setInfo({ agent: d.agent, balance: d.balance }))
      .catch(() => setMissing(true))
  }, [agentId, version])

  async function adjust(e: React.FormEvent) {
    e.preventDefault()
    if (reason.trim().length < 3) return toast('A reason of at least 3 characters is required', 'error')
    setBusy(true)
    try {
      const r = await api<{ balance: number }>(`/api/wallet/agents/${agentId}/adjust`, {
        body: { amount: Number(amount), direction, reason },
        fallbackError: 'Adjustment failed'
      })
      toast(`Wallet ${direction === 'CREDIT' ? 'credited' : 'debited'}. New balance ${formatCedis(r.balance)}.`, 'success')
      setAmount('')
      setReason('')
      setVersion((v) => v + 1)
    } catch (err) {
      toast(err instanceof ApiError && err.message ? err.message : 'Adjustment failed', 'error')
    } finally {
      setBusy(false)
    }
  }

  if (missing)
    return (
      <section>
        <h1 className="title">Agent wallet</h1>
        <p className="notification is-warning">
          Agent not found. Open a wallet from the <a href="/admin/agents">Agents</a> page.
        </p>
      </section>
    )
  return (
    <section>
      <h1 className="title">Agent wallet</h1>
      <p className="subtitle is-6">{info ? `${info.agent.name} (${info.agent.phone})` : 'Loading...'}</p>
      <div className="columns">
        <div className="column is-one-third">
          <div className="box has-text-centered">
            <p className="heading">Balance</p>
            <p className="stat-value" data-testid="admin-wallet-balance">
              {info ? formatCedis(info.balance) : '-'}
            </p>
          </div>
        </div>
        <div className="column">
          <form className="box" onSubmit={(e) => void adjust(e)} aria-labelledby="adjust-title">
            <h2 className="title is-5" id="adjust-title">
              Credit or debit
            </h2>
            <div className="columns is-mobile is-multiline">
              <div className="column is-6-tablet is-12-mobile">
                <div className="field">
                  <label className="label" htmlFor="adj-direction">
                    Direction
                  </label>
                  <div className="select is-fullwidth">
                    <select id="adj-direction" value={direction} onChange={(e) => setDirection(e.target.value as 'CREDIT' | 'DEBIT')}>
                      <option value="CREDIT">Credit (add)</option>
                      <option value="DEBIT">Debit (take)</option>
                    </select>
                  </div>
                </div>
              </div>
              <div className="column is-6-tablet is-12-mobile">
                <div className="field">
                  <label className="label" htmlFor="adj-amount">
                    Amount (GH₵)
                  </label>
                  <input
                    id="adj-amount"
                    className="input"
                    type="number"
                    min="0.01"
                    step="0.01"
                    inputMode="decimal"
                    value={amount}
                    onChange={(e) => setAmount(e.target.value)}
                    required
                  />
                </div>
              </div>
            </div>
            <div className="field">
              <label className="label" htmlFor="adj-reason">
                Reason
              </label>
              <input id="adj-reason" className="input" maxLength={300} value={reason} onChange={(e) => setReason(e.target.value)} required />
              <p className="help">Required; kept on the ledger and in the audit log.</p>
            </div>
            <button type="submit" className={`button is-primary${busy ? ' is-loading' : ''}`} disabled={busy}>
              Save adjustment
            </button>
          </form>
        </div>
      </div>
      {agentId ? (
        <Statement
          version={version}
          base={`/api/wallet/agents/${agentId}`}
          csv={false}
          action={(entry) =>
            // A top-up (or a bulk order's payment) goes back to the payer out of this wallet (ADR 0045).
            entry.type === 'TOPUP' && entry.transactionId ? (
              <RefundDialog
                id={entry.transactionId}
                url={`/api/admin/payments/${entry.transactionId}/refund`}
                title="Refund top-up"
                text={`The payer gets back ${formatCedis(entry.amount)} and the same is taken out of this wallet; refused when the balance no longer holds it.`}
                label={`Refund the top-up ${entry.transactionId}`}
                onRefunded={() => setVersion((v) => v + 1)}
              />
            ) : null
          }
        />
      ) : null}
    </section>
  )
}
