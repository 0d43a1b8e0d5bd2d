/** One SMS gateway. `send` resolves with the gateway's message id, or throws SmsError. */
export interface SmsProvider {
  readonly name: string
  send(input: { to: string; message: string; sender: string; sensitive?: boolean }): Promise<{ messageId: string | null }>
}

/** `retryable`: the gateway was down or slow; otherwise it refused (bad number, bad sender, no credit). */
export class SmsError extends Error {
  readonly retryable: boolean
  constructor(message: string, retryable: boolean) {
    super(message)
    this.retryable = retryable
  }
}
