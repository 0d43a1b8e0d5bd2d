import { NETWORKS } from '../../../lib/vocabulary.ts'
import { rateHeaders, common } from './shared.ts'

// The catalogue and the wallet: bundles at the agent price, and the balance orders are paid from.

export const paths = {
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
  }
} as const

export const schemas = {
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
  Network: { type: 'string', enum: [...NETWORKS] }
} as const
