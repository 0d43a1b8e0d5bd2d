import type http from 'node:http'

// The fake Paystack's words: what tests tell it, what it keeps, and the state its routes share.
export type Trouble = { kind: '429' | '502' | 'nonjson' | 'reset' | 'silence' | 'slow'; ms?: number; create?: boolean }
export type ResolveTrouble = { kind: '429' | '502' | 'nonjson' | 'reset' }

export interface FakeRefund {
  id: number
  reference: string
  amount: number
  status: 'pending' | 'processed' | 'failed'
}
export interface FakeTxn {
  id: number
  reference: string
  amount: number
  currency: string
  email: string
  channel: 'card' | 'mobile_money'
  provider?: string
  phone?: string
  status: 'abandoned' | 'pay_offline' | 'success' | 'failed' | 'pending' | 'send_otp' | 'reversed'
  paidAmount?: number
  /** undefined: as charged; null: the answer carries no currency. */
  paidCurrency?: string | null
  createdAt: Date
}

export interface FakeTransfer {
  id: number
  reference: string
  amount: number
  currency: string
  recipient: string
  reason: string
  transfer_code: string
  /** Paystack's transfer status words (abandoned, blocked, rejected: never sent). */
  status: 'pending' | 'success' | 'failed' | 'reversed' | 'otp' | 'abandoned' | 'blocked' | 'rejected'
}

export interface FakePaystack {
  /** Transfers made, by reference (Paystack keeps one per reference). */
  transfers: Map<string, FakeTransfer>
  recipients: Map<string, { recipient_code: string; account_number: string; bank_code: string; name: string }>
  /** Numbers /bank/resolve does not know (a clear refusal). */
  unknownNumbers: Set<string>
  /** The next POST /transfer misbehaves (create: the transfer is still made), or GET /transfer/verify does. */
  transferTrouble(t: Trouble | null): void
  verifyTrouble(t: Trouble | null): void
  /** The next POST /refund or GET /refund misbehaves (nothing is made). */
  refundTrouble(t: Trouble | null): void
  /** The next POST /transfer is refused outright (e.g. 'Your balance is not enough to fulfil this request'). */
  refuseNextTransfer(message: string | null): void
  completeTransfer(reference: string, status: Exclude<FakeTransfer['status'], 'pending'>): void
  /** The next GET /bank/resolve misbehaves this way (an answer, never a late one). */
  resolveTrouble(t: ResolveTrouble | null): void
  /** A signed transfer.success / transfer.failed / transfer.reversed event for a transfer. */
  transferEvent(
    reference: string,
    event: 'transfer.success' | 'transfer.failed' | 'transfer.reversed',
    opts?: { amount?: number }
  ): { body: string; signature: string }
  url: string
  secret: string
  txns: Map<string, FakeTxn>
  requests: { method: string; path: string; query: URLSearchParams; body: any; auth: string | undefined }[]
  /** The most the list endpoint returns per page, whatever perPage asks (Paystack caps it too). */
  maxPerPage: number
  refunds: FakeRefund[]
  complete(reference: string, status: 'success' | 'failed' | 'reversed', opts?: { amount?: number; currency?: string | null }): void
  webhook(reference: string, opts?: { amount?: number; currency?: string | null }): { body: string; signature: string }
  /** Any signed event: { event, data }. */
  event(event: string, data: unknown): { body: string; signature: string }
  /** The next POST /charge misbehaves this way (create: the charge still reaches "Paystack"). */
  trouble(t: Trouble | null): void
  /** Networks (Paystack provider codes) whose charges ask for a voucher first (send_otp). */
  otpProviders: Set<string>
  /** How the next refunds end: 'processed' at once, 'pending' (webhook later) or refused. */
  refundMode: 'processed' | 'pending' | 'refuse' | 'lost'
  /** A transaction that exists only at the gateway (for reconciliation tests). */
  plant(t: Partial<FakeTxn> & { reference: string; amount: number }): void
  sign(body: string): string
  close(): Promise<void>
}

/** What the fake keeps between requests; its routes read and change it, tests through `FakePaystack`. */
export interface FakeState {
  txns: Map<string, FakeTxn>
  requests: FakePaystack['requests']
  refunds: FakeRefund[]
  otpProviders: Set<string>
  nextId: number
  /** The next POST /charge misbehaves this way. */
  trouble: Trouble | null
  transfers: Map<string, FakeTransfer>
  recipients: FakePaystack['recipients']
  unknownNumbers: Set<string>
  transferTrouble: Trouble | null
  verifyTrouble: Trouble | null
  refundTrouble: Trouble | null
  resolveTrouble: ResolveTrouble | null
  refuseTransfer: string | null
  refundMode: FakePaystack['refundMode']
  maxPerPage: number
}

/** One request as a route sees it: parsed, with the answer to give. */
export interface Asked {
  s: FakeState
  req: http.IncomingMessage
  res: http.ServerResponse
  path: string
  body: any
  send: (status: number, payload: unknown) => void
}
