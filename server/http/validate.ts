import type Joi from 'joi'
import { AppError, badRequest } from '../lib/errors.ts'

/** The type a request schema lets through, read off the schema (declared once, on `Joi.object<T>`). */
export type Valid<S> = S extends Joi.Schema<infer T> ? T : never

function check<S extends Joi.Schema>(schema: S, raw: unknown): { value: Valid<S>; problem?: string } {
  const { value, error } = schema.validate(raw ?? {})
  // A rule written as a function (`.custom`) may throw the answer it means, its own words kept as they are.
  const thrown = error?.details[0]?.context?.error
  if (thrown instanceof AppError) throw thrown
  return { value: value as Valid<S>, problem: error && error.details[0]!.message.replace(/"/g, '') }
}

/**
 * Checks a request's part against its endpoint's schema, once, at the edge: the service then takes
 * the typed value and never checks it again. The first problem is the answer (400), as everywhere.
 */
export function valid<S extends Joi.Schema>(schema: S, raw: unknown): Valid<S> {
  const { value, problem } = check(schema, raw)
  if (problem !== undefined) throw badRequest(problem)
  return value
}

/** Like `valid`, for a form the spec answers with one message: the first problem goes along as `details` for API clients. */
export function validForm<S extends Joi.Schema>(schema: S, raw: unknown, message: string): Valid<S> {
  const { value, problem } = check(schema, raw)
  if (problem !== undefined) throw badRequest(message, { details: problem })
  return value
}

/** Like `valid`, answering Joi's words as they are (a field's name in quotes): for endpoints whose answers always carried them. */
export function validQuoted<S extends Joi.Schema>(schema: S, raw: unknown): Valid<S> {
  const { value, error } = schema.validate(raw ?? {})
  if (error) throw badRequest(error.details[0]!.message)
  return value as Valid<S>
}
