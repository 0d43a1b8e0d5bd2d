import { errorResponse, rateHeaders, common } from './shared.ts'

// Result-checker vouchers: the products and their purchase.

export const paths = {
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
  }
} as const

export const schemas = {
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
  }
} as const
