import { networkMismatchWarning, parseGhanaMobile } from '../../server/lib/phone.ts'
import { digitsOnly, NETWORK_LABEL, NETWORKS } from './format.ts'

/** Mobile-money payer: phone (can differ from the recipient) and its network. */
export function PayerFields(props: {
  idPrefix: string
  phone: string
  network: string
  onPhone(v: string): void
  onNetwork(v: string): void
  phoneLabel?: string
}) {
  const { idPrefix } = props
  const parsed = props.phone ? parseGhanaMobile(props.phone) : null
  const error = parsed && !parsed.ok && props.phone.length >= 10 ? parsed.error : null
  const warning = parsed?.ok ? networkMismatchWarning(props.phone, props.network) : null
  return (
    <div className="columns is-mobile is-multiline">
      <div className="column is-7-tablet is-12-mobile">
        <div className="field">
          <label className="label" htmlFor={`${idPrefix}-payer-phone`}>{props.phoneLabel ?? 'Payment Phone Number'}</label>
          <div className="control">
            <input
              id={`${idPrefix}-payer-phone`}
              className="input"
              inputMode="numeric"
              autoComplete="tel"
              placeholder="0241234567"
              value={props.phone}
              onChange={(e) => props.onPhone(digitsOnly(e.target.value))}
              aria-describedby={`${idPrefix}-payer-help`}
            />
          </div>
          <p className={`help${error ? ' is-danger' : warning ? ' is-warning-text' : ''}`} id={`${idPrefix}-payer-help`} aria-live="polite">
            {error ?? warning ?? 'Can be different from recipient. You will get a prompt on this phone.'}
          </p>
        </div>
      </div>
      <div className="column is-5-tablet is-12-mobile">
        <div className="field">
          <label className="label" htmlFor={`${idPrefix}-payer-network`}>Payment Network</label>
          <div className="control">
            <div className="select is-fullwidth">
              <select id={`${idPrefix}-payer-network`} value={props.network} onChange={(e) => props.onNetwork(e.target.value)}>
                {NETWORKS.map((n) => <option key={n} value={n}>{NETWORK_LABEL[n]}</option>)}
              </select>
            </div>
          </div>
        </div>
      </div>
    </div>
  )
}
