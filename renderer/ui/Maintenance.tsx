import { usePageContext } from '../usePageContext.tsx'
import { whatsappLink } from './links.ts'

export function Maintenance() {
  const { settings } = usePageContext()
  const wa = whatsappLink(settings.whatsappNumber)
  return (
    <main className="maintenance" id="main">
      <div>
        <p className="is-size-1" aria-hidden="true">
          🛠️
        </p>
        <h1 className="title is-3">Platform Under Maintenance</h1>
        <p className="subtitle is-6 mb-5">We are making improvements. Please check back shortly.</p>
        {wa ? (
          <a className="button is-success" href={wa} target="_blank" rel="noopener noreferrer">
            Contact us on WhatsApp
          </a>
        ) : null}
        <p className="mt-5">
          <a href="/login">Admin sign in</a>
        </p>
      </div>
    </main>
  )
}
