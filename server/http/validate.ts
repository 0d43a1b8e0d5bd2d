import type Joi from 'joi'
import { badRequest } from '../lib/errors.ts'

/** The type a request schema lets through, read off the schema (declared once, on `Joi.object<T>`). */
export type Valid<S> = S extends Joi.Schema<infer T> ? T : never

/**
 * Checks a request's part against its endpoint's schema, once, at the edge: the service then takes
 * the typed value and never checks it again. The first problem is the answer (400), as everywhere.
 */
export function valid<S extends Joi.Schema>(schema: S, raw: unknown): Valid<S> {
  const { value, error } = schema.validate(raw ?? {})
  if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
  return value as Valid<S>
}
