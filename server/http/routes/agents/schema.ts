import Joi from 'joi'
import { NETWORKS } from '../../../lib/vocabulary.ts'
import type { FeeRequestInput, RegisterInput } from '../../../services/agents/index.ts'

// One schema per endpoint of /api/agents, bound to the type its service takes: the route checks once.

const digits = (msg: string) =>
  Joi.string()
    .trim()
    .pattern(/^\d{9,12}$/)
    .messages({ 'string.pattern.base': msg, 'string.base': msg, 'string.empty': msg, 'any.required': msg })

/** POST /api/agents/register */
export const registerBody = Joi.object<RegisterInput>({
  name: Joi.string().trim().max(120).required().messages({
    'any.required': 'Enter your business/full name',
    'string.empty': 'Enter your business/full name',
    'string.base': 'Enter your business/full name',
    'string.max': 'Name must be at most 120 characters'
  }),
  phone: digits('Enter a valid phone number').required(),
  email: Joi.string()
    .trim()
    .lowercase()
    .max(254)
    .pattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/)
    .required()
    .messages({
      'any.required': 'Enter a valid email',
      'string.empty': 'Enter a valid email',
      'string.pattern.base': 'Enter a valid email',
      'string.base': 'Enter a valid email',
      'string.max': 'Enter a valid email'
    }),
  password: Joi.string().min(6).max(200).required().messages({
    'any.required': 'Password must be at least 6 characters',
    'string.empty': 'Password must be at least 6 characters',
    'string.min': 'Password must be at least 6 characters',
    'string.base': 'Password must be at least 6 characters',
    'string.max': 'Password must be at most 200 characters'
  }),
  // An invite link's code (/agent/register?ref=...): the new agent becomes that agent's sub-agent.
  ref: Joi.string().trim().allow('', null).max(40).messages({ '*': 'This invite link is not valid' })
}).options({ stripUnknown: true })

/** POST /api/agents/:id/payment/request (the phone and network are needed for mobile money only). */
export const feeRequestBody = Joi.object<FeeRequestInput>({
  phone_number: digits('Please enter a valid phone number'),
  network: Joi.string()
    .trim()
    .uppercase()
    .valid(...NETWORKS)
    .messages({
      'any.only': 'Please select a mobile network',
      'string.base': 'Please select a mobile network',
      'string.empty': 'Please select a mobile network'
    })
})
  .rename('phoneNumber', 'phone_number', { ignoreUndefined: true })
  .options({ stripUnknown: true })

/** `:id` of /api/agents/:id/... */
export const agentIdParams = Joi.object<{ id: number }>({
  id: Joi.number().integer().min(1).max(2_147_483_647).required().messages({ '*': 'Invalid agent id' })
}).options({ stripUnknown: true })
