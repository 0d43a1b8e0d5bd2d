/** A page that is routed and guarded but whose screen is still to be built. */
export function Placeholder({ title, subtitle }: { title: string; subtitle?: string }) {
  return (
    <section className="section">
      <div className="container">
        <h1 className="title">{title}</h1>
        {subtitle ? <p className="subtitle">{subtitle}</p> : null}
      </div>
    </section>
  )
}
