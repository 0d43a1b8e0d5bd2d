import { usePageContext } from '../../renderer/usePageContext.tsx'

export default function Page() {
  const { settings } = usePageContext()
  return (
    <section className="hero is-primary">
      <div className="hero-body container">
        <h1 className="title is-2">{settings.siteName || 'Data Hub'}</h1>
        <p className="subtitle">{settings.welcomeMessage}</p>
        <div className="buttons">
          <a className="button is-light" href="/data-services">Buy Data Now</a>
          <a className="button is-outlined is-light" href="/agent/register">Become an Agent</a>
        </div>
      </div>
    </section>
  )
}
