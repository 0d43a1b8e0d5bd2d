import type { Response } from 'express'

/**
 * The bytes and type `res.json` / `res.type('text/plain').send` give, without their ETag (a hash of every answer):
 * a server-to-server callback's answer is never revalidated, and its caller reads only the status and a few bytes.
 */
export function answerJson(res: Response, value: unknown, status = 200) {
  answer(res, status, 'application/json; charset=utf-8', JSON.stringify(value))
}

export function answerText(res: Response, text: string, status = 200) {
  answer(res, status, 'text/plain; charset=utf-8', text)
}

function answer(res: Response, status: number, type: string, body: string) {
  res.statusCode = status
  res.setHeader('Content-Type', type)
  res.setHeader('Content-Length', Buffer.byteLength(body))
  res.end(body)
}
