// What every operation of the reseller API answers alike: errors, rate-limit headers, the idempotency key.

const error = { $ref: '#/components/schemas/Error' }
export const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: error } } })
export const rateHeaders = {
  'X-RateLimit-Limit': { description: 'Requests allowed per minute for this key.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current minute.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Seconds until the window starts again.', schema: { type: 'integer' } }
}
export const common = {
  '401': errorResponse('Missing, unknown or revoked API key.'),
  '403': errorResponse('The agent account is not approved or not paid.'),
  '429': {
    description: 'Rate limit exceeded for this key.',
    headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } } },
    content: { 'application/json': { schema: error } }
  }
}

export const idempotencyKey = (what: string) => ({
  name: 'Idempotency-Key',
  in: 'header',
  required: true,
  description: `A unique value per ${what} you intend, e.g. a UUID (1 to 255 of A-Z a-z 0-9 _ . : -).`,
  schema: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,255}$' }
})
export const createdHeaders = {
  ...rateHeaders,
  'Idempotent-Replayed': { description: '`true` when this answers an earlier request with the same key.', schema: { type: 'string', enum: ['true'] } }
}

export const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'string' }, message: { type: 'string' } }
}
