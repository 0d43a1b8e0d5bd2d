import Joi from 'joi'
import { badRequest } from '../../lib/errors.ts'
import { NOTHING_TO_ORDER, parseText, parseXlsx, type RawLine } from './parse.ts'
import { networkOfWord } from './preview.ts'

/** What the portal sends, checked at the edge (routes/bulk/schema.ts): pasted text, a CSV file's text or an .xlsx file in base64 (one of them). */
export interface SourceInput {
  text?: string
  csv?: string
  xlsx?: string
  allowDuplicates: boolean
  sms: boolean
  expectedTotal?: number
  /** Mobile money: the total in one payment from this phone (like a wallet top-up), the lines written when it succeeds. */
  pay: 'wallet' | 'momo'
  payerPhone?: string | null
  payerNetwork?: string | null
}

/** A batch's lines as read, with how to take them. */
export type Source = {
  lines: RawLine[]
  allowDuplicates: boolean
  sms: boolean
  expectedTotal?: number
  pay?: 'wallet' | 'momo'
  payerPhone?: string | null
  payerNetwork?: string | null
}

/** The portal's lines read from its text, CSV or Excel file. */
export async function sourceOf(value: SourceInput): Promise<Source> {
  const isWord = (w: string) => networkOfWord(w) !== null
  const lines = value.xlsx ? await parseXlsx(Buffer.from(value.xlsx, 'base64')) : parseText(value.text ?? value.csv ?? '', isWord)
  return {
    lines,
    allowDuplicates: value.allowDuplicates,
    sms: value.sms,
    expectedTotal: value.expectedTotal,
    pay: value.pay,
    payerPhone: value.payerPhone,
    payerNetwork: value.payerNetwork
  }
}

// The reseller API's batch body is checked here, after its Idempotency-Key, whose request hash is of
// the body as sent: the key's answers come first, as the API's documentation orders them.
const apiLineSchema = Joi.object({
  recipientNumber: Joi.alternatives(Joi.string().allow(''), Joi.number()).required(),
  network: Joi.string().allow('', null),
  packageId: Joi.number().integer().min(1).max(2_147_483_647),
  bundle: Joi.string().allow('').max(60)
}).options({ stripUnknown: true })
const apiSchema = Joi.object({
  lines: Joi.array().items(apiLineSchema).min(1).required().messages({
    'array.min': NOTHING_TO_ORDER,
    'any.required': 'lines is required: an array of lines, each with recipientNumber and packageId or bundle (network optional)'
  }),
  allowDuplicates: Joi.boolean().default(false),
  sms: Joi.boolean().default(false)
}).options({ stripUnknown: true })

/** What the reseller API sends: lines as JSON. */
export function apiSourceOf(raw: unknown): Source {
  const { value, error } = apiSchema.validate(raw && typeof raw === 'object' ? raw : {})
  if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
  const lines = (value.lines as { recipientNumber: string | number; network?: string | null; packageId?: number; bundle?: string }[]).map((l, i) => ({
    line: i + 1,
    recipient: String(l.recipientNumber ?? '').trim(),
    network: l.network ?? '',
    bundle: l.packageId !== undefined ? String(l.packageId) : (l.bundle ?? '')
  }))
  return { lines, allowDuplicates: value.allowDuplicates, sms: value.sms }
}
