import { usePageContext } from '../../renderer/usePageContext.tsx'

export default function Page() {
  const { is404 } = usePageContext()
  return (
    <section className="section">
      <div className="container has-text-centered">
        <h1 className="title">{is404 ? 'Page not found' : 'Something went wrong'}</h1>
        <p className="mb-4">{is404 ? 'The page you asked for does not exist.' : 'Please try again in a moment.'}</p>
        <a className="button is-primary" href="/">
          Go Home
        </a>
      </div>
    </section>
  )
}
