import { usePageContext } from '../../../renderer/usePageContext.tsx'
import { Gate } from '../_shared/Gate.tsx'
import { isActiveAgent } from '../../../renderer/format.ts'
import type { WalletData } from './+data.ts'
import { Statement } from './Statement.tsx'
import { TopUp } from './TopUp.tsx'
import { useState } from 'react'
import { formatCedis } from '../../../server/lib/money.ts'

export default function Page() {
  const pc = usePageContext() as ReturnType<typeof usePageContext> & { data: WalletData }
  const { agent, wallet, method } = pc.data
  const [balance, setBalance] = useState(wallet?.balance ?? 0)
  // Bumped after a top-up succeeds, so the statement reloads.
  const [version, setVersion] = useState(0)
  return (
    <section>
      <h1 className="title">Wallet</h1>
      <p className="subtitle is-6">Top up once, then buy instantly on the web, by USSD and through the API.</p>
      <Gate agent={agent} />
      {isActiveAgent(agent) && wallet ? (
        <>
          <div className="columns">
            <div className="column is-one-third">
              <div className="box has-text-centered">
                <p className="heading">Balance</p>
                <p className="stat-value" data-testid="wallet-balance">
                  {formatCedis(balance)}
                </p>
              </div>
            </div>
            <div className="column">
              <TopUp
                agent={agent!}
                method={method}
                limits={wallet.limits}
                onCredited={(b) => {
                  setBalance(b)
                  setVersion((v) => v + 1)
                }}
              />
            </div>
          </div>
          <Statement version={version} />
        </>
      ) : null}
    </section>
  )
}
