import { useEffect } from 'react'
import { networkMismatchWarning, networkOfPhone, parseGhanaMobile } from '../../server/lib/phone.ts'
import { digitsOnly, NETWORK_LABEL, NETWORKS } from './format.ts'

/**
 * Picks the network the payer's number belongs to by its prefix, when the number is complete and
 * whenever it moves to another network's prefix. A choice made by hand stays until then: a number
 * ported to another network keeps its old prefix.
 */
export function useInferredNetwork(phone: string, network: string, onNetwork: (n: string) => void) {
  const inferred = networkOfPhone(phone)
  useEffect(() => {
    if (inferred && inferred !== network) onNetwork(inferred)
    // Only a change of the number's network re-picks; the current choice is not a trigger.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [inferred])
}

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
  useInferredNetwork(props.phone, props.network, props.onNetwork)
  const parsed = props.phone ? parseGhanaMobile(props.phone) : null
  const error = parsed && !parsed.ok && props.phone.length >= 10 ? parsed.error : null
  const warning = parsed?.ok ? networkMismatchWarning(props.phone, props.network) : null
  return (
    <div className="columns is-mobile is-multiline">
      <div className="column is-7-tablet is-12-mobile">
        <div className="field">
          <label className="label" htmlFor={`${idPrefix}-payer-phone`}>
            {props.phoneLabel ?? 'Payment Phone Number'}
          </label>
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
          <label className="label" htmlFor={`${idPrefix}-payer-network`}>
            Payment Network
          </label>
          <div className="control">
            <div className="select is-fullwidth">
              <select id={`${idPrefix}-payer-network`} value={props.network} onChange={(e) => props.onNetwork(e.target.value)}>
                {NETWORKS.map((n) => (
                  <option key={n} value={n}>
                    {NETWORK_LABEL[n]}
                  </option>
                ))}
              </select>
            </div>
          </div>
        </div>
      </div>
    </div>
  )
}
