import Joi from 'joi'
import type { ChangePasswordInput, LoginInput } from '../../../services/auth/index.ts'
import type { ForgotInput, ResetInput } from '../../../services/recovery/index.ts'

// One schema per endpoint of /api/auth that takes a body, bound to the type its service takes.

/** POST /api/auth/login (answered by `validQuoted`: its problems always named the field in quotes). */
export const loginBody = Joi.object<LoginInput>({
  email: Joi.string().trim().lowercase().max(254).required(),
  password: Joi.string().max(200).required()
}).messages({ 'any.required': 'Enter email and password', 'string.empty': 'Enter email and password' })

/** POST /api/auth/change-password (answered by `validQuoted`, as sign-in). */
export const changePasswordBody = Joi.object<ChangePasswordInput>({
  currentPassword: Joi.string().max(200).required(),
  newPassword: Joi.string().min(6).max(200).required()
}).messages({
  'any.required': 'All password fields are required',
  'string.empty': 'All password fields are required',
  'string.min': 'Password must be at least 6 characters'
})

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
