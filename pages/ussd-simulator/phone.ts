/** The simulator plays the Africa's Talking gateway: every answer so far, joined by '*'. */
export const joinInputs = (inputs: string[]) => inputs.join('*')

export const newSessionId = () => `sim-${globalThis.crypto.randomUUID()}`

/** 'CON Hello' -> { end: false, text: 'Hello' }; anything not starting CON/END is shown as is and ends. */
export function readReply(body: string): { end: boolean; text: string } {
  if (body.startsWith('CON ')) return { end: false, text: body.slice(4) }
  if (body.startsWith('END ')) return { end: true, text: body.slice(4) }
  return { end: true, text: body }
}

export const SCREEN_LIMIT = 182
