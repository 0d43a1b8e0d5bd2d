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
  'X-RateLimit-Reset': { description: 'Seconds until the window starts again.', schema: { type: 'integer' } }
}
const common = {
  '401': errorResponse('Missing, unknown or revoked API key.'),
  '403': errorResponse('The agent account is not approved or not paid.'),
  '429': {
    description: 'Rate limit exceeded for this key.',
    headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } } },
    content: { 'application/json': { schema: error } }
  }
}

const idempotencyKey = (what: string) => ({
  name: 'Idempotency-Key',
  in: 'header',
  required: true,
  description: `A unique value per ${what} you intend, e.g. a UUID (1 to 255 of A-Z a-z 0-9 _ . : -).`,
  schema: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,255}$' }
})
const createdHeaders = {
  ...rateHeaders,
  'Idempotent-Replayed': { description: '`true` when this answers an earlier request with the same key.', schema: { type: 'string', enum: ['true'] } }
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
      'Each key may make a limited number of requests per minute; a 429 answer carries `Retry-After`.'
  },
  servers: [{ url: '/api/v1' }],
  security: [{ apiKey: [] }],
  tags: [{ name: 'Catalogue' }, { name: 'Wallet' }, { name: 'Orders' }, { name: 'Bulk orders' }, { name: 'Result checkers' }],
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
            content: { 'application/json': { schema: { $ref: '#/components/schemas/PackageList' } } }
          },
          ...common
        }
      }
    },
    '/balance': {
      get: {
        operationId: 'getBalance',
        tags: ['Wallet'],
        summary: 'Your wallet balance',
        responses: {
          '200': { description: 'The balance.', headers: rateHeaders, content: { 'application/json': { schema: { $ref: '#/components/schemas/Balance' } } } },
          ...common
        }
      }
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
        parameters: [idempotencyKey('purchase')],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/OrderRequest' } } } },
        responses: {
          '201': {
            description: 'The order, paid. Also the answer to a repeated request with the same Idempotency-Key.',
            headers: createdHeaders,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/OrderEnvelope' } } }
          },
          '400': errorResponse('Invalid body or missing Idempotency-Key.'),
          '402': errorResponse('The wallet balance does not cover the order; nothing was bought.'),
          ...common,
          '422': errorResponse('The Idempotency-Key was already used with a different body.')
        }
      }
    },
    '/vouchers/products': {
      get: {
        operationId: 'listVoucherProducts',
        tags: ['Result checkers'],
        summary: 'Result-checker cards on sale, at your price',
        responses: {
          '200': {
            description: 'The products.',
            headers: rateHeaders,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/VoucherProductList' } } }
          },
          ...common
        }
      }
    },
    '/vouchers/orders': {
      post: {
        operationId: 'createVoucherOrder',
        tags: ['Result checkers'],
        summary: 'Buy result-checker cards, paid from your wallet; the answer holds their serials and PINs',
        description:
          'The `Idempotency-Key` header is required: the same key with the same body answers the same purchase (with its cards) and never buys twice. ' +
          'Cards the stock could not supply are listed in `notSupplied` and their price goes back to your wallet.',
        parameters: [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: true,
            description: 'A unique value per purchase you intend (1 to 255 of A-Z a-z 0-9 _ . : -).',
            schema: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,255}$' }
          }
        ],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/VoucherOrderRequest' } } } },
        responses: {
          '201': {
            description: 'The purchase with its cards. Also the answer to a repeated request with the same Idempotency-Key.',
            headers: {
              ...rateHeaders,
              'Idempotent-Replayed': {
                description: '`true` when this answers an earlier request with the same key.',
                schema: { type: 'string', enum: ['true'] }
              }
            },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/VoucherPurchaseEnvelope' } } }
          },
          '400': errorResponse('Invalid body or missing Idempotency-Key.'),
          '402': errorResponse('The wallet balance does not cover the purchase; nothing was bought.'),
          '404': errorResponse('No such product on sale.'),
          '409': errorResponse('Not enough cards in stock; nothing was bought.'),
          ...common,
          '422': errorResponse('The Idempotency-Key was already used with a different body.')
        }
      }
    },
    '/orders/{id}': {
      get: {
        operationId: 'getOrder',
        tags: ['Orders'],
        summary: 'One of your orders, with payment and delivery status',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
        responses: {
          '200': {
            description: 'The order.',
            headers: rateHeaders,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/OrderEnvelope' } } }
          },
          '404': errorResponse('No such order among yours.'),
          ...common
        }
      }
    },
    '/batches': {
      post: {
        operationId: 'createBatch',
        tags: ['Bulk orders'],
        summary: 'Send bundles to many numbers, paid once from your wallet',
        description:
          'Each line names a recipient and a bundle: `packageId`, or `bundle` as a size (`1GB`, `500MB`) or a bundle name; `network` may be left out when ' +
          "the number's prefix says it. Every line is checked like a single order; if any line is refused the answer is 422 with each refused line's " +
          'number and reason, and nothing is bought. Otherwise the total is taken from your wallet in one debit and every line becomes an order, ' +
          'delivered on its own; a line whose delivery fails for good is refunded to your wallet. Lines repeating a number with the same bundle are ' +
          'refused unless `allowDuplicates` is true. `sms: true` texts each recipient. The `Idempotency-Key` header is required and works as for orders.',
        parameters: [idempotencyKey('batch')],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/BatchRequest' } } } },
        responses: {
          '201': {
            description: 'The batch, paid, with its orders. Also the answer to a repeated request with the same Idempotency-Key.',
            headers: createdHeaders,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/BatchEnvelope' } } }
          },
          '400': errorResponse('Invalid body, too many lines, or missing Idempotency-Key.'),
          '402': errorResponse('The wallet balance does not cover the total; nothing was bought.'),
          ...common,
          '422': {
            description:
              'Some lines cannot be ordered (each listed with its line number and reason), or the Idempotency-Key was already used with a different body. Nothing was bought.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/LineErrors' } } }
          }
        }
      }
    },
    '/batches/{id}': {
      get: {
        operationId: 'getBatch',
        tags: ['Bulk orders'],
        summary: 'One of your batches: its progress and each line',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
        responses: {
          '200': {
            description: 'The batch.',
            headers: rateHeaders,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/BatchEnvelope' } } }
          },
          '404': errorResponse('No such batch among yours.'),
          ...common
        }
      }
    }
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
          { name: 'X-DataHub-Delivery', in: 'header', required: true, schema: { type: 'string' } }
        ],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookEvent' } } } },
        responses: { '200': { description: 'Received.' } }
      }
    },
    batchCompleted: {
      post: {
        operationId: 'batchCompleted',
        summary: 'Every line of a batch of yours has ended (delivered or failed)',
        description: 'Sent once per batch, signed and retried exactly like `order.updated`; `X-DataHub-Event` is `batch.completed`.',
        parameters: [
          { name: 'X-DataHub-Signature', in: 'header', required: true, schema: { type: 'string' } },
          { name: 'X-DataHub-Event', in: 'header', required: true, schema: { type: 'string', enum: ['batch.completed'] } },
          { name: 'X-DataHub-Delivery', in: 'header', required: true, schema: { type: 'string' } }
        ],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/BatchCompletedEvent' } } } },
        responses: { '200': { description: 'Received.' } }
      }
    }
  },
  components: {
    securitySchemes: {
      apiKey: { type: 'http', scheme: 'bearer', description: 'An API key from the agent portal (starts with `dh_live_`).' }
    },
    schemas: {
      Error: {
        type: 'object',
        required: ['error'],
        properties: { error: { type: 'string' }, message: { type: 'string' } }
      },
      Package: {
        type: 'object',
        required: ['id', 'network', 'name', 'dataSizeMB', 'price'],
        properties: {
          id: { type: 'integer' },
          network: { $ref: '#/components/schemas/Network' },
          name: { type: 'string' },
          dataSizeMB: { type: 'integer' },
          price: { type: 'number', description: 'Your price in GHS.' }
        }
      },
      PackageList: {
        type: 'object',
        required: ['packages', 'currency'],
        properties: { packages: { type: 'array', items: { $ref: '#/components/schemas/Package' } }, currency: { const: 'GHS' } }
      },
      Balance: {
        type: 'object',
        required: ['balance', 'currency'],
        properties: { balance: { type: 'number', minimum: 0 }, currency: { const: 'GHS' } }
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
          recipientNumber: { type: 'string', pattern: '^\\d{1,12}$', examples: ['0241234567'] }
        },
        oneOf: [{ required: ['packageId'] }, { required: ['network', 'dataSizeMB'] }]
      },
      Order: {
        type: 'object',
        required: [
          'id',
          'network',
          'dataSizeMB',
          'packageId',
          'recipientNumber',
          'amount',
          'paymentStatus',
          'deliveryStatus',
          'delivered',
          'transactionId',
          'channel',
          'createdAt',
          'updatedAt'
        ],
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
          updatedAt: { type: 'string', format: 'date-time' }
        }
      },
      VoucherProductList: {
        type: 'object',
        required: ['products'],
        properties: {
          products: {
            type: 'array',
            items: {
              type: 'object',
              required: ['id', 'name', 'price', 'inStock'],
              properties: {
                id: { type: 'integer' },
                name: { type: 'string' },
                price: { type: 'number', description: 'Your price per card in GHS.' },
                inStock: { type: 'boolean' },
                howToUse: { type: 'string' },
                checkingUrl: { type: 'string' }
              }
            }
          }
        }
      },
      VoucherOrderRequest: {
        type: 'object',
        required: ['productId'],
        properties: { productId: { type: 'integer', minimum: 1 }, quantity: { type: 'integer', minimum: 1, maximum: 10, default: 1 } }
      },
      VoucherPurchaseEnvelope: {
        type: 'object',
        required: ['purchase'],
        properties: {
          purchase: {
            type: 'object',
            required: ['transactionId', 'paymentStatus', 'quantity', 'amount', 'cards', 'notSupplied'],
            properties: {
              transactionId: { type: 'string' },
              paymentStatus: { type: 'string' },
              quantity: { type: 'integer' },
              amount: { type: 'number', description: 'GHS paid from the wallet.' },
              notSupplied: { type: 'integer', description: 'Cards out of stock; their price is refunded to the wallet.' },
              cards: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['serial', 'pin'],
                  properties: { serial: { type: 'string' }, pin: { type: 'string' }, expiresOn: { type: ['string', 'null'] } }
                }
              }
            }
          }
        }
      },
      OrderEnvelope: { type: 'object', required: ['order'], properties: { order: { $ref: '#/components/schemas/Order' } } },
      BatchLineRequest: {
        type: 'object',
        required: ['recipientNumber'],
        properties: {
          recipientNumber: { type: 'string', examples: ['0241234567'] },
          network: { $ref: '#/components/schemas/Network' },
          packageId: { type: 'integer', minimum: 1 },
          bundle: { type: 'string', description: 'A size such as 1GB or 500MB, or a bundle name.', examples: ['1GB'] }
        }
      },
      BatchRequest: {
        type: 'object',
        required: ['lines'],
        properties: {
          lines: {
            type: 'array',
            minItems: 1,
            description: "At most the shop's bulk line limit (1000 unless changed).",
            items: { $ref: '#/components/schemas/BatchLineRequest' }
          },
          allowDuplicates: { type: 'boolean', default: false },
          sms: { type: 'boolean', default: false, description: 'Text each recipient about its order.' }
        }
      },
      Batch: {
        type: 'object',
        required: ['id', 'lines', 'total', 'counts', 'done', 'completedAt', 'createdAt'],
        properties: {
          id: { type: 'integer' },
          lines: { type: 'integer' },
          total: { type: 'number', description: 'GHS, taken from the wallet in one debit.' },
          channel: { type: 'string' },
          sms: { type: 'boolean' },
          counts: {
            type: 'object',
            required: ['queued', 'delivered', 'failed', 'refunded'],
            properties: {
              queued: { type: 'integer' },
              delivered: { type: 'integer' },
              failed: { type: 'integer' },
              refunded: { type: 'integer', description: 'Failed lines whose money went back to the wallet.' }
            }
          },
          done: { type: 'boolean' },
          status: {
            type: 'string',
            enum: ['PAID', 'AWAITING_PAYMENT', 'CANCELLED'],
            description:
              'PAID for every batch placed here; a batch the agent chose to pay by mobile money in the portal waits for that payment (no lines yet) or was cancelled when it failed.'
          },
          paymentTransactionId: { type: ['string', 'null'], description: 'The mobile money payment of a batch paid that way; null for a wallet-paid batch.' },
          completedAt: { type: ['string', 'null'], format: 'date-time' },
          createdAt: { type: 'string', format: 'date-time' }
        }
      },
      BatchLine: {
        type: 'object',
        required: ['orderId', 'recipientNumber', 'network', 'amount', 'paymentStatus', 'deliveryStatus', 'reference'],
        properties: {
          orderId: { type: 'integer' },
          recipientNumber: { type: 'string' },
          network: { $ref: '#/components/schemas/Network' },
          bundle: { type: ['string', 'null'] },
          dataSizeMB: { type: 'integer' },
          amount: { type: 'number', description: 'GHS' },
          paymentStatus: { type: 'string' },
          deliveryStatus: { type: 'string' },
          reference: { type: ['string', 'null'], description: "The delivery vendor's reference." },
          error: { type: ['string', 'null'] }
        }
      },
      BatchEnvelope: {
        type: 'object',
        required: ['batch', 'lines'],
        properties: { batch: { $ref: '#/components/schemas/Batch' }, lines: { type: 'array', items: { $ref: '#/components/schemas/BatchLine' } } }
      },
      LineErrors: {
        type: 'object',
        required: ['error'],
        properties: {
          error: { type: 'string' },
          lines: {
            type: 'array',
            items: { type: 'object', required: ['line', 'error'], properties: { line: { type: 'integer', minimum: 1 }, error: { type: 'string' } } }
          }
        }
      },
      BatchCompletedEvent: {
        type: 'object',
        required: ['id', 'type', 'createdAt', 'data'],
        properties: {
          id: { type: 'string' },
          type: { const: 'batch.completed' },
          createdAt: { type: 'string', format: 'date-time' },
          data: { type: 'object', required: ['batch'], properties: { batch: { $ref: '#/components/schemas/Batch' } } }
        }
      },
      WebhookEvent: {
        type: 'object',
        required: ['id', 'type', 'createdAt', 'data'],
        properties: {
          id: { type: 'string' },
          type: { const: 'order.updated' },
          createdAt: { type: 'string', format: 'date-time' },
          data: { type: 'object', required: ['order'], properties: { order: { $ref: '#/components/schemas/Order' } } }
        }
      }
    }
  }
} as const
