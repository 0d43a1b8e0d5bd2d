import Joi from 'joi'
import type { ForgotInput, ResetInput } from '../../../services/recovery/index.ts'

// One schema per endpoint of /api/auth that has moved to the edge: account recovery's two forms.
// Sign-in and change-password are still checked by the auth service.

const identifier = Joi.string().trim().max(254).required().messages({
  'any.required': 'Enter your phone number or email',
  'string.empty': 'Enter your phone number or email',
  'string.max': 'Enter a valid phone number or email'
})

/** POST /api/auth/forgot */
export const forgotBody = Joi.object<ForgotInput>({ identifier }).options({ stripUnknown: true })

/** POST /api/auth/reset: the same password rules as registration and change-password, plus the confirm field. */
export const resetBody = Joi.object<ResetInput>({
  identifier,
  code: Joi.string()
    .trim()
    .pattern(/^\d{6}$/)
    .required()
    .messages({
      'any.required': 'Enter the 6-digit code',
      'string.empty': 'Enter the 6-digit code',
      'string.pattern.base': 'The code is 6 digits'
    }),
  newPassword: Joi.string().min(6).max(200).required().messages({
    'any.required': 'All password fields are required',
    'string.empty': 'All password fields are required',
    'string.min': 'Password must be at least 6 characters',
    'string.max': 'Password must be at most 200 characters'
  }),
  confirmPassword: Joi.string().required().valid(Joi.ref('newPassword')).messages({
    'any.required': 'All password fields are required',
    'string.empty': 'All password fields are required',
    'any.only': 'New passwords do not match'
  })
}).options({ stripUnknown: true })
