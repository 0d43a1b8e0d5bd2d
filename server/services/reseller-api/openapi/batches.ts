import { errorResponse, rateHeaders, common, idempotencyKey, createdHeaders } from './shared.ts'

// Bulk orders: a batch of lines paid with one debit.

export const paths = {
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
} as const

export const schemas = {
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
  }
} as const
