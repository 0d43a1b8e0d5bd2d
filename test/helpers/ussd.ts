import crypto from 'node:crypto'
import { hashSecret } from '../../server/lib/crypto.ts'
import { createAgent } from './factories.ts'
import { app } from './server.ts'

/** A USSD reply as the telco sees it. */
export interface Hop {
  status: number
  body: string
  con: boolean
  end: boolean
  text: string
}

/** Posts one Africa's Talking hop (form-encoded) to the real endpoint. */
export async function atHop(fields: Record<string, string>, query = '', headers: Record<string, string> = {}): Promise<Hop> {
  const res = await fetch(`${app().url}/ussd/africastalking${query}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString()
  })
  const body = await res.text()
  return { status: res.status, body, con: body.startsWith('CON '), end: body.startsWith('END '), text: body.slice(4) }
}

/**
 * A phone dialling in the Africa's Talking way: each answer is appended to `text` with '*',
 * under one session id. `send('1')` answers the current screen.
 */
export class AtPhone {
  inputs: string[] = []
  sessionId: string
  phone: string
  constructor(phone: string, sessionId?: string) {
    this.phone = phone
    this.sessionId = sessionId ?? `ATUid_${crypto.randomUUID()}`
  }
  get text() {
    return this.inputs.join('*')
  }
  dial(): Promise<Hop> {
    this.inputs = []
    return this.hop()
  }
  send(input: string): Promise<Hop> {
    this.inputs.push(input)
    return this.hop()
  }
  hop(): Promise<Hop> {
    return atHop({ sessionId: this.sessionId, serviceCode: '*920*44#', phoneNumber: this.phone, networkCode: '62001', text: this.text })
  }
}

/** An approved, paid agent with a known USSD PIN. */
export async function ussdAgent(over: Record<string, any> = {}, pin = '4826') {
  const a = await createAgent(over)
  await app().db.models.Agent.update({ pinHash: await hashSecret(pin) }, { where: { id: a.agent.id } })
  return { ...a, pin }
}
