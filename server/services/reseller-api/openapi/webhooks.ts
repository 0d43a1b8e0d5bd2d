// The signed events sent to the agent's webhook URL.

export const webhooks = {
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
} as const

export const schemas = {
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
} as const
