import crypto from 'node:crypto'
import { misbehave, NEXT, transferData } from './fake-paystack-state.ts'
import type { Asked, FakeTransfer } from './fake-paystack-types.ts'

const BANKS = [
  { id: 28, name: 'MTN', slug: 'mtn-gh', code: 'MTN', type: 'mobile_money', currency: 'GHS', country: 'Ghana', active: true },
  { id: 29, name: 'Vodafone', slug: 'vodafone-gh', code: 'VOD', type: 'mobile_money', currency: 'GHS', country: 'Ghana', active: true },
  { id: 30, name: 'AirtelTigo', slug: 'airteltigo-gh', code: 'ATL', type: 'mobile_money', currency: 'GHS', country: 'Ghana', active: true }
]

/**
 * The fake Paystack's Transfers API: GET /bank?currency=GHS&type=mobile_money, GET /bank/resolve,
 * POST /transferrecipient, POST /transfer (one transfer per reference), GET /transfer/verify/:reference.
 * NEXT when the request is none of them.
 */
export function answerTransfers({ s, req, res, path, body, send }: Asked): unknown {
  if (req.method === 'GET' && path === '/bank') {
    const sp = new URL(req.url ?? '/', 'http://x').searchParams
    return send(200, {
      status: true,
      message: 'Banks retrieved',
      data: BANKS.filter((b) => (!sp.get('currency') || b.currency === sp.get('currency')) && (!sp.get('type') || b.type === sp.get('type')))
    })
  }
  if (req.method === 'GET' && path === '/bank/resolve') {
    const sp = new URL(req.url ?? '/', 'http://x').searchParams
    const tr = s.resolveTrouble
    s.resolveTrouble = null
    if (tr && misbehave(tr, req, res, () => undefined)) return
    const number = sp.get('account_number') ?? ''
    if (!BANKS.some((b) => b.code === sp.get('bank_code'))) return send(422, { status: false, message: 'Unknown bank code' })
    if (!/^0\d{9}$/.test(number) || s.unknownNumbers.has(number))
      return send(422, { status: false, message: 'Could not resolve account name. Check parameters or try again.' })
    return send(200, {
      status: true,
      message: 'Account number resolved',
      data: { account_number: number, account_name: 'KOFI MENSAH', bank_id: BANKS.find((b) => b.code === sp.get('bank_code'))!.id }
    })
  }
  if (req.method === 'POST' && path === '/transferrecipient') {
    if (
      body?.type !== 'mobile_money' ||
      body?.currency !== 'GHS' ||
      !body?.name ||
      !/^0\d{9}$/.test(String(body?.account_number ?? '')) ||
      !BANKS.some((b) => b.code === body?.bank_code)
    ) {
      return send(400, { status: false, message: 'Invalid recipient details' })
    }
    const key = `${body.bank_code}:${body.account_number}`
    let rec = [...s.recipients.values()].find((r) => `${r.bank_code}:${r.account_number}` === key)
    if (!rec) {
      rec = {
        recipient_code: `RCP_${crypto.randomBytes(6).toString('hex')}`,
        account_number: body.account_number,
        bank_code: body.bank_code,
        name: body.name
      }
      s.recipients.set(rec.recipient_code, rec)
    }
    return send(201, {
      status: true,
      message: 'Transfer recipient created successfully',
      data: {
        active: true,
        currency: 'GHS',
        name: rec.name,
        recipient_code: rec.recipient_code,
        type: 'mobile_money',
        details: { account_number: rec.account_number, account_name: rec.name, bank_code: rec.bank_code }
      }
    })
  }
  if (req.method === 'POST' && path === '/transfer') {
    if (
      body?.source !== 'balance' ||
      !Number.isInteger(body?.amount) ||
      body.amount <= 0 ||
      !s.recipients.has(String(body?.recipient)) ||
      !/^[a-z0-9_-]{16,50}$/.test(String(body?.reference ?? ''))
    ) {
      return send(400, { status: false, message: 'Invalid transfer details' })
    }
    const reference = String(body.reference)
    if (s.transfers.has(reference)) return send(400, { status: false, message: 'Duplicate Transfer Reference' })
    if (s.refuseTransfer) {
      const message = s.refuseTransfer
      s.refuseTransfer = null
      return send(400, { status: false, message })
    }
    const t: FakeTransfer = {
      id: s.nextId++,
      reference,
      amount: body.amount,
      currency: body.currency ?? 'NGN',
      recipient: String(body.recipient),
      reason: String(body.reason ?? ''),
      transfer_code: `TRF_${crypto.randomBytes(6).toString('hex')}`,
      status: 'pending'
    }
    const tr = s.transferTrouble
    s.transferTrouble = null
    if (tr) {
      if (tr.create !== false) s.transfers.set(reference, t)
      if (misbehave(tr, req, res, () => send(200, { status: true, message: 'Transfer has been queued', data: transferData(s, t) }))) return
    }
    s.transfers.set(reference, t)
    return send(200, { status: true, message: 'Transfer has been queued', data: transferData(s, t) })
  }
  const m = /^\/transfer\/verify\/([^/]+)$/.exec(path)
  if (req.method === 'GET' && m) {
    const t = s.transfers.get(decodeURIComponent(m[1]!))
    const tr = s.verifyTrouble
    s.verifyTrouble = null
    if (tr && misbehave(tr, req, res, () => send(200, { status: true, message: 'Transfer retrieved', data: t ? transferData(s, t) : null }))) return
    if (!t) return send(404, { status: false, message: 'Transfer not found' })
    return send(200, { status: true, message: 'Transfer retrieved', data: transferData(s, t) })
  }
  return NEXT
}
