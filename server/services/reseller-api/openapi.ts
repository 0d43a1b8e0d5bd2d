import * as batches from './openapi/batches.ts'
import * as catalogue from './openapi/catalogue.ts'
import * as orders from './openapi/orders.ts'
import { errorSchema } from './openapi/shared.ts'
import * as vouchers from './openapi/vouchers.ts'
import * as webhooks from './openapi/webhooks.ts'

/**
 * The reseller API's OpenAPI 3.1 document, served at /api/v1/openapi.json and rendered on /developers.
 * Kept true by test/integration/reseller-api.test.ts, which validates it and calls every path here,
 * checking each answer against the documented schema. Each resource's paths and schemas are in openapi/.
 */
export const openApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'Data Hub Reseller API',
    version: '1.0.0',
    summary: 'Buy data bundles at your agent price, paid from your Data Hub wallet.',
    description:
      'Create an API key in the agent portal (Profile, API keys) and send it as `Authorization: Bearer <key>`. ' +
      'Orders are paid from your wallet at once; top up in the portal. Amounts are in Ghana cedis (GHS) with 2 decimals. ' +
      'Each key may make a limited number of requests per minute; a 429 answer carries `Retry-After`.'
  },
  servers: [{ url: '/api/v1' }],
  security: [{ apiKey: [] }],
  tags: [{ name: 'Catalogue' }, { name: 'Wallet' }, { name: 'Orders' }, { name: 'Bulk orders' }, { name: 'Result checkers' }],
  paths: {
    '/packages': catalogue.paths['/packages'],
    '/balance': catalogue.paths['/balance'],
    '/orders': orders.paths['/orders'],
    ...vouchers.paths,
    '/orders/{id}': orders.paths['/orders/{id}'],
    ...batches.paths
  },
  webhooks: webhooks.webhooks,
  components: {
    securitySchemes: {
      apiKey: { type: 'http', scheme: 'bearer', description: 'An API key from the agent portal (starts with `dh_live_`).' }
    },
    schemas: { Error: errorSchema, ...catalogue.schemas, ...orders.schemas, ...vouchers.schemas, ...batches.schemas, ...webhooks.schemas }
  }
} as const
