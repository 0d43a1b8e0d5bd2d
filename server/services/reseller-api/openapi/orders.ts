import { errorResponse, rateHeaders, common, idempotencyKey, createdHeaders } from './shared.ts'

// Orders of one bundle, paid from the wallet at once.

export const paths = {
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
  }
} as const

export const schemas = {
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
  OrderEnvelope: { type: 'object', required: ['order'], properties: { order: { $ref: '#/components/schemas/Order' } } }
} as const
