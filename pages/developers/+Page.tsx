import { openApiDocument } from '../../server/services/reseller-api/openapi.ts'
import { Operation, type Op } from './Operation.tsx'

const VERIFY_SAMPLE = `import crypto from 'node:crypto'

// rawBody: the exact bytes received; header: the X-DataHub-Signature value
function verify(secret, rawBody, header) {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=')))
  const t = Number(parts.t)
  if (Math.abs(Date.now() / 1000 - t) > 300) return false
  const mac = crypto.createHmac('sha256', secret).update(\`\${t}.\${rawBody}\`).digest('hex')
  return parts.v1?.length === mac.length && crypto.timingSafeEqual(Buffer.from(parts.v1), Buffer.from(mac))
}`

const ORDER_SAMPLE = `curl -X POST https://YOUR-SHOP/api/v1/orders \\
  -H "Authorization: Bearer dh_live_..." \\
  -H "Idempotency-Key: 6f1c2a9e-order-1042" \\
  -H "Content-Type: application/json" \\
  -d '{"network":"MTN","dataSizeMB":1024,"recipientNumber":"0241234567"}'`

/**
 * The reseller API's documentation, rendered from the same OpenAPI object the server serves at
 * /api/v1/openapi.json (so it cannot drift), with no viewer library: it costs only this page.
 */
export default function Page() {
  const doc = openApiDocument
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op: op as unknown as Op })))
  const hook = doc.webhooks.orderUpdated.post as unknown as Op
  return (
    <section className="section">
      <div className="container is-max-desktop content">
        <h1 className="title">{doc.info.title}</h1>
        <p className="subtitle is-6">
          Version {doc.info.version}. {doc.info.summary}
        </p>
        <p>{doc.info.description}</p>
        <p>
          Base URL: <code>{doc.servers[0].url}</code>. Machine-readable description: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI 3.1).
        </p>

        <h2 className="title is-4">Getting started</h2>
        <ol>
          <li>
            Sign in to the agent portal and top up your <a href="/agent/wallet">wallet</a>.
          </li>
          <li>
            Create an API key under <a href="/agent/profile">Profile, API access</a>. It is shown once; keep it secret on your server.
          </li>
          <li>
            Send it with every request: <code>Authorization: Bearer &lt;key&gt;</code>.
          </li>
        </ol>
        <pre className="is-size-7" aria-label="Example request">
          <code>{ORDER_SAMPLE}</code>
        </pre>
        <p>
          <strong>Errors</strong> come as <code>{'{ "error": "..." }'}</code> with the HTTP status. <strong>Rate limit</strong>: each key may make a set number
          of requests per minute; every answer carries <code>X-RateLimit-Remaining</code>, and a <code>429</code> carries <code>Retry-After</code> (seconds).
        </p>

        <h2 className="title is-4">Endpoints</h2>
        {ops.map(({ path, method, op }) => (
          <Operation key={`${method} ${path}`} method={method} path={path} op={op} />
        ))}

        <h2 className="title is-4">Webhook: order status changes</h2>
        <Operation method="post" path="(your webhook URL)" op={hook} />
        <p>Verifying a delivery in Node.js:</p>
        <pre className="is-size-7" aria-label="Signature verification example">
          <code>{VERIFY_SAMPLE}</code>
        </pre>
      </div>
    </section>
  )
}
