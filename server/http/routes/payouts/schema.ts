import Joi from 'joi'
import { isWholePesewas } from '../../../lib/money.ts'
import { NETWORK_LABEL, NETWORKS, orList } from '../../../lib/vocabulary.ts'
import { AMOUNT_MESSAGE, MAX_PAYOUT_GHS, type PayoutListInput, type PayoutNumberInput, type TransferSimInput } from '../../../services/payouts/model.ts'
import { TRANSFER_SIM_MODES } from '../../../services/payouts/simulator.ts'

// One schema per endpoint of /api/payouts and /api/admin/payouts, bound to the type its service takes.

/** POST /api/payouts/number */
export const numberBody = Joi.object<PayoutNumberInput>({
  network: Joi.string()
    .uppercase()
    .valid(...NETWORKS)
    .required()
    .messages({ '*': `Choose the network: ${orList(NETWORKS.map((n) => NETWORK_LABEL[n]!))}` }),
  phone: Joi.string().required().messages({ '*': 'Enter the mobile money number' }),
  accountName: Joi.string().trim().min(2).max(120).required().messages({ '*': 'Enter the account name registered on the number (2 to 120 characters)' })
}).options({ stripUnknown: true })

/** POST /api/payouts: the amount in GHS, whole pesewas. */
export const amountBody = Joi.object<{ amount: number }>({
  amount: Joi.number()
    .positive()
    .max(MAX_PAYOUT_GHS)
    .required()
    .custom((v: number, h) => (isWholePesewas(v) ? v : h.error('any.invalid')))
    .messages({ '*': AMOUNT_MESSAGE })
}).options({ stripUnknown: true })

/** POST /api/admin/payouts/:id/reject */
export const reasonBody = Joi.object<{ reason: string }>({
  reason: Joi.string().trim().min(3).max(300).required().messages({ '*': 'A reason of at least 3 characters is required' })
}).options({ stripUnknown: true })

/** GET /api/admin/payouts and its export.csv (the export reads only the tab). */
export const listQuery = Joi.object<PayoutListInput>({
  status: Joi.string().valid('', 'PENDING_APPROVAL', 'SENT', 'SUCCESS', 'FAILED', 'REVERSED', 'REJECTED', 'OPEN').default(''),
  page: Joi.number().integer().min(1).max(100000).default(1),
  limit: Joi.number().integer().min(1).max(100).default(20)
}).options({ stripUnknown: true })

/** POST /api/payouts/simulator */
export const simulatorBody = Joi.object<TransferSimInput>({
  mode: Joi.string()
    .valid(...TRANSFER_SIM_MODES)
    .required()
    .messages({ '*': `Mode must be one of ${TRANSFER_SIM_MODES.join(', ')}` }),
  count: Joi.number().integer().min(1).max(100),
  delayMs: Joi.number().integer().min(0).max(600_000)
}).options({ stripUnknown: true })

/** `:id` of /api/admin/payouts/:id/... (a malformed id finds no payout: 404, as before). */
export const payoutIdParams = Joi.object<{ id: number }>({ id: Joi.number().integer().min(1).max(2_147_483_647).required() }).options({ stripUnknown: true })
