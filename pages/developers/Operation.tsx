import { openApiDocument } from '../../server/services/reseller-api/openapi.ts'

type Schema = Record<string, any>
export interface Op {
  operationId: string
  summary: string
  description?: string
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema: Schema }[]
  requestBody?: { content: { 'application/json': { schema: Schema } } }
  responses: Record<string, { description: string; content?: { 'application/json': { schema: Schema } } }>
}

const schemas = openApiDocument.components.schemas as unknown as Record<string, Schema>
const resolve = (s: Schema): Schema => (s?.$ref ? resolve(schemas[String(s.$ref).split('/').pop()!]!) : s)
const refName = (s: Schema) => (s?.$ref ? String(s.$ref).split('/').pop() : null)

function typeOf(s: Schema): string {
  const r = resolve(s)
  if (r.const !== undefined) return JSON.stringify(r.const)
  if (r.enum) return r.enum.map((v: unknown) => JSON.stringify(v)).join(' | ')
  if (r.type === 'array') return `${typeOf(r.items)}[]`
  if (Array.isArray(r.type)) return r.type.join(' | ')
  return refName(s) ?? r.type ?? 'object'
}

/** A schema's fields as a definition list, nested objects indented (small and readable at 360 px). */
function Fields({ schema, depth = 0 }: { schema: Schema; depth?: number }) {
  const s = resolve(schema)
  const props = s.type === 'array' ? resolve(s.items).properties : s.properties
  if (!props || depth > 3) return null
  const required = new Set<string>((s.type === 'array' ? resolve(s.items).required : s.required) ?? [])
  return (
    <ul className="mt-1 mb-1" style={{ listStyle: 'none', marginLeft: depth ? '1rem' : 0 }}>
      {Object.entries(props as Record<string, Schema>).map(([name, p]) => {
        const r = resolve(p)
        const nested = r.properties || (r.type === 'array' && resolve(r.items).properties)
        return (
          <li key={name}>
            <code>{name}</code> <span className="has-text-grey">{typeOf(p)}</span>
            {required.has(name) ? <span className="tag is-light is-small ml-1">required</span> : null}
            {r.description ? <span> — {r.description}</span> : null}
            {nested ? <Fields schema={p} depth={depth + 1} /> : null}
          </li>
        )
      })}
    </ul>
  )
}

const METHOD_CLASS: Record<string, string> = { get: 'is-info', post: 'is-success', put: 'is-warning', delete: 'is-danger' }

export function Operation({ method, path, op }: { method: string; path: string; op: Op }) {
  const body = op.requestBody?.content['application/json'].schema
  return (
    <article className="box" id={op.operationId} aria-labelledby={`${op.operationId}-title`}>
      <h3 className="title is-5" id={`${op.operationId}-title`}>
        <span className={`tag ${METHOD_CLASS[method] ?? 'is-light'} mr-2`}>{method.toUpperCase()}</span>
        <code style={{ wordBreak: 'break-all' }}>{path}</code>
      </h3>
      <p className="has-text-weight-semibold">{op.summary}</p>
      {op.description ? <p>{op.description}</p> : null}
      {op.parameters?.length ? (
        <>
          <p className="mb-1">
            <strong>Parameters</strong>
          </p>
          <ul className="mt-0">
            {op.parameters.map((p) => (
              <li key={p.name}>
                <code>{p.name}</code> ({p.in}
                {p.required ? ', required' : ''}) <span className="has-text-grey">{typeOf(p.schema)}</span>
                {p.description ? ` — ${p.description}` : ''}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {body ? (
        <>
          <p className="mb-1">
            <strong>Request body</strong> <span className="has-text-grey">{typeOf(body)}</span>
            {resolve(body).oneOf ? ' — give packageId, or network and dataSizeMB' : ''}
          </p>
          <Fields schema={body} />
        </>
      ) : null}
      <p className="mb-1">
        <strong>Responses</strong>
      </p>
      <ul className="mt-0">
        {Object.entries(op.responses).map(([status, r]) => {
          const schema = r.content?.['application/json'].schema
          return (
            <li key={status}>
              <span className={`tag ${status.startsWith('2') ? 'is-success' : 'is-danger'} is-light mr-1`}>{status}</span>
              {r.description}
              {schema && status.startsWith('2') ? <Fields schema={schema} /> : null}
            </li>
          )
        })}
      </ul>
    </article>
  )
}
