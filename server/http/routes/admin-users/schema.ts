import Joi from 'joi'
import { AGENT_STATUSES, ROLES, type UsersListInput } from '../../../services/auth/users-admin.ts'
import type { Role } from '../../../services/context.ts'

// One schema per endpoint of /api/admin/users that takes input, bound to the type its service takes.

/** GET /api/admin/users */
export const usersQuery = Joi.object<UsersListInput>({
  page: Joi.number().integer().min(1).max(1_000_000).default(1),
  limit: Joi.number().integer().min(1).max(100).default(20),
  role: Joi.string()
    .uppercase()
    .valid(...ROLES, 'ALL', '')
    .default(''),
  agentStatus: Joi.string()
    .lowercase()
    .valid(...AGENT_STATUSES, 'all', '')
    .default('')
}).options({ stripUnknown: true })

/** `:id` of PATCH /api/admin/users/:id/role, checked before the body as it always was. */
export const userIdParams = Joi.object<{ id: number }>({
  id: Joi.number().integer().min(1).required().messages({ '*': 'Invalid user id' })
}).options({ stripUnknown: true })

/** PATCH /api/admin/users/:id/role */
export const roleBody = Joi.object<{ role: Role }>({
  role: Joi.string()
    .trim()
    .uppercase()
    .valid(...ROLES)
    .required()
    .messages({ 'any.only': 'Role must be PUBLIC, AGENT or ADMIN', 'any.required': 'Role is required', 'string.empty': 'Role is required' })
}).options({ stripUnknown: true })
