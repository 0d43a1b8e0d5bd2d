import type { Request, Response } from 'express'

/**
 * One dial hop as the menu sees it, whatever the gateway. Gateways differ in one way that matters:
 * Africa's Talking resends every input so far joined by '*' (`text`), while Hubtel, Arkesel and Nalo
 * send only the latest input with a new-session flag. The engine handles both shapes.
 */
export interface GatewayRequest {
  gateway: string
  sessionId: string
  /** Digits only, as the gateway sent them (normalised later). */
  phone: string
  serviceCode: string | null
  /** The gateway's network code or name, when it sends one (used to guess the mobile-money network). */
  network: string | null
  /** Cumulative gateways: every input so far joined by '*'. */
  text?: string
  /** Last-input gateways: this hop's input only ('' on the first hop). */
  lastInput?: string
  /** Last-input gateways: true on the first hop of a dial. */
  newSession?: boolean
  /** Fields the gateway wants echoed back in the reply (JSON gateways). */
  echo?: Record<string, unknown>
}

export interface UssdReply {
  text: string
  /** true: END (the phone closes the session); false: CON (the phone waits for input). */
  end: boolean
}

export type ParseResult = { ok: true; request: GatewayRequest } | { ok: false; error: string }

/** A gateway's wire protocol: read its request, write our reply in its format. */
export interface UssdAdapter {
  name: string
  parse(req: Request): ParseResult
  send(res: Response, reply: UssdReply, request: GatewayRequest | null, status?: number): void
}
