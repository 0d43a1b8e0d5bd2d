export const WHATSAPP_SEND_TASK = 'whatsapp.send'
export const WHATSAPP_CHAT_TASK = 'whatsapp.chat'

/**
 * A chat's answering jobs run one at a time, in order, in their own named queue; its sends in another,
 * so the answering job never holds the queue its own answers wait in.
 */
export const chatQueue = (waId: string, way: 'in' | 'out') => `wa-${way}:${waId}`
