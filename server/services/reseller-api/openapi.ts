import { NETWORKS } from '../../lib/vocabulary.ts'

/**
 * The reseller API's OpenAPI 3.1 document, served at /api/v1/openapi.json and rendered on /developers.
 * Kept true by test/integration/reseller-api.test.ts, which validates it and calls every path here,
 * checking each answer against the documented schema.
 */
const error = { $ref: '#/components/schemas/Error' }
const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: error } } })
const rateHeaders = {
  'X-RateLimit-Limit': { description: 'Requests allowed per minute for this key.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current minute.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Seconds until the window starts again.', schema: { type: 'integer' } },
}
const common = {
  '401': errorResponse('Missing, unknown or revoked API key.'),
  '403': errorResponse('The agent account is not approved or not paid.'),
  '429': {
    description: 'Rate limit exceeded for this key.',
    headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } } },
    content: { 'application/json': { schema: error } },
  },
}

export const openApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'Data Hub Reseller API',
    version: '1.0.0',
    summary: 'Buy data bundles at your agent price, paid from your Data Hub wallet.',
    description:
      'Create an API key in the agent portal (Profile, API keys) and send it as `Authorization: Bearer <key>`. ' +
      'Orders are paid from your wallet at once; top up in the portal. Amounts are in Ghana cedis (GHS) with 2 decimals. ' +
      'Each key may make a limited number of requests per minute; a 429 answer carries `Retry-After`.',
  },
  servers: [{ url: '/api/v1' }],
  security: [{ apiKey: [] }],
  tags: [{ name: 'Catalogue' }, { name: 'Wallet' }, { name: 'Orders' }],
  paths: {
    '/packages': {
      get: {
        operationId: 'listPackages',
        tags: ['Catalogue'],
        summary: 'Active bundles at your agent price',
        responses: {
          '200': {
            description: 'Every active bundle.',
            headers: rateHeaders,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/PackageList' } } },
          },
          ...common,
        },
      },
    },
    '/balance': {
      get: {
        operationId: 'getBalance',
        tags: ['Wallet'],
        summary: 'Your wallet balance',
        responses: {
          '200': { description: 'The balance.', headers: rateHeaders, content: { 'application/json': { schema: { $ref: '#/components/schemas/Balance' } } } },
          ...common,
        },
      },
    },
    '/orders': {
      post: {
        operationId: 'createOrder',
        tags: ['Orders'],
        summary: 'Buy a bundle, paid from your wallet',
        description:
          'Name the bundle by `packageId`, or by `network` and `dataSizeMB`. The `Idempotency-Key` header is required: ' +
          'sending the same key with the same body again returns the same order (with `Idempotent-Replayed: true`) and never buys twice; ' +
          'the same key with a different body is refused with 422.',
        parameters: [
          { name: 'Idempotency-Key', in: 'header', required: true, description: 'A unique value per purchase you intend, e.g. a UUID (1 to 255 of A-Z a-z 0-9 _ . : -).', schema: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,255}$' } },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/OrderRequest' } } } },
        responses: {
          '201': {
            description: 'The order, paid. Also the answer to a repeated request with the same Idempotency-Key.',
            headers: { ...rateHeaders, 'Idempotent-Replayed': { description: '`true` when this answers an earlier request with the same key.', schema: { type: 'string', enum: ['true'] } } },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/OrderEnvelope' } } },
          },
          '400': errorResponse('Invalid body or missing Idempotency-Key.'),
          '402': errorResponse('The wallet balance does not cover the order; nothing was bought.'),
          ...common,
          '422': errorResponse('The Idempotency-Key was already used with a different body.'),
        },
      },
    },
    '/orders/{id}': {
      get: {
        operationId: 'getOrder',
        tags: ['Orders'],
        summary: 'One of your orders, with payment and delivery status',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
        responses: {
          '200': { description: 'The order.', headers: rateHeaders, content: { 'application/json': { schema: { $ref: '#/components/schemas/OrderEnvelope' } } } },
          '404': errorResponse('No such order among yours.'),
          ...common,
        },
      },
    },
  },
  webhooks: {
    orderUpdated: {
      post: {
        operationId: 'orderUpdated',
        summary: 'An order of yours changed payment or delivery status',
        description:
          'Set your webhook URL in the agent portal (Profile, Webhook). Saving the first URL makes your signing secret (`whsec_...`) ' +
          'and shows it once, like an API key: copy it then. If it is lost or leaked, make a new one there (New secret), shown once too; ' +
          'from that moment deliveries are signed with the new secret only. Each delivery is a POST of this JSON, signed in the header ' +
          '`X-DataHub-Signature: t=<unix seconds>,v1=<hex>` where `v1` is HMAC-SHA256 of `<t>.<raw body>` with your webhook secret. ' +
          'Recompute it over the raw bytes, compare in constant time, and refuse a `t` older than 5 minutes. Answer 2xx; anything else ' +
          'is retried with exponential backoff for about a day. `X-DataHub-Delivery` (the event id) may repeat on retries: treat it as idempotent.',
        parameters: [
          { name: 'X-DataHub-Signature', in: 'header', required: true, schema: { type: 'string' } },
          { name: 'X-DataHub-Event', in: 'header', required: true, schema: { type: 'string', enum: ['order.updated'] } },
          { name: 'X-DataHub-Delivery', in: 'header', required: true, schema: { type: 'string' } },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookEvent' } } } },
        responses: { '200': { description: 'Received.' } },
      },
    },
  },
  components: {
    securitySchemes: {
      apiKey: { type: 'http', scheme: 'bearer', description: 'An API key from the agent portal (starts with `dh_live_`).' },
    },
    schemas: {
      Error: {
        type: 'object',
        required: ['error'],
        properties: { error: { type: 'string' }, message: { type: 'string' } },
      },
      Package: {
        type: 'object',
        required: ['id', 'network', 'name', 'dataSizeMB', 'price'],
        properties: {
          id: { type: 'integer' },
          network: { $ref: '#/components/schemas/Network' },
          name: { type: 'string' },
          dataSizeMB: { type: 'integer' },
          price: { type: 'number', description: 'Your price in GHS.' },
        },
      },
      PackageList: {
        type: 'object',
        required: ['packages', 'currency'],
        properties: { packages: { type: 'array', items: { $ref: '#/components/schemas/Package' } }, currency: { const: 'GHS' } },
      },
      Balance: {
        type: 'object',
        required: ['balance', 'currency'],
        properties: { balance: { type: 'number', minimum: 0 }, currency: { const: 'GHS' } },
      },
      Network: { type: 'string', enum: [...NETWORKS] },
      OrderRequest: {
        type: 'object',
        required: ['recipientNumber'],
        additionalProperties: false,
        properties: {
          packageId: { type: 'integer', minimum: 1 },
          network: { $ref: '#/components/schemas/Network' },
          dataSizeMB: { type: 'integer', minimum: 1 },
          recipientNumber: { type: 'string', pattern: '^\\d{1,12}$', examples: ['0241234567'] },
        },
        oneOf: [{ required: ['packageId'] }, { required: ['network', 'dataSizeMB'] }],
      },
      Order: {
        type: 'object',
        required: ['id', 'network', 'dataSizeMB', 'packageId', 'recipientNumber', 'amount', 'paymentStatus', 'deliveryStatus', 'delivered', 'transactionId', 'channel', 'createdAt', 'updatedAt'],
        properties: {
          id: { type: 'integer' },
          network: { $ref: '#/components/schemas/Network' },
          dataSizeMB: { type: 'integer' },
          packageId: { type: ['integer', 'null'] },
          recipientNumber: { type: 'string' },
          amount: { type: 'number', description: 'GHS' },
          paymentStatus: { type: 'string', enum: ['PENDING', 'IN_PROGRESS', 'SUCCESS', 'FAILED', 'EXPIRED'] },
          deliveryStatus: { type: 'string', description: 'PENDING until the bundle is delivered; DELIVERED after, or a failure status.' },
          delivered: { type: 'boolean' },
          transactionId: { type: ['string', 'null'] },
          channel: { type: 'string' },
          createdAt: { type: 'string', format: 'date-time' },
          updatedAt: { type: 'string', format: 'date-time' },
        },
      },
      OrderEnvelope: { type: 'object', required: ['order'], properties: { order: { $ref: '#/components/schemas/Order' } } },
      WebhookEvent: {
        type: 'object',
        required: ['id', 'type', 'createdAt', 'data'],
        properties: {
          id: { type: 'string' },
          type: { const: 'order.updated' },
          createdAt: { type: 'string', format: 'date-time' },
          data: { type: 'object', required: ['order'], properties: { order: { $ref: '#/components/schemas/Order' } } },
        },
      },
    },
  },
} as const

