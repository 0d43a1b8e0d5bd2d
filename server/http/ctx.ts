import type { Request } from 'express'
import type { Ctx } from '../services/context.ts'

/** The plain context services take, read off the request. */
export const ctxOf = (req: Request): Ctx => ({ user: req.user ?? null, ip: req.ip ?? null, log: req.log })
