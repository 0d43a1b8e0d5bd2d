import Joi from 'joi'
import type { SimulatorInput } from '../../../services/delivery/index.ts'
import { SIMULATOR_MODES } from '../../../services/delivery/vendors/simulator.ts'

// One schema per endpoint of /api/delivery that takes input, bound to the type its service takes.

/** POST /api/delivery/simulator: the next `count` deliveries behave as `mode` ('late': confirmed `lateMs` after the call). */
export const simulatorBody = Joi.object<SimulatorInput>({
  mode: Joi.string()
    .valid(...SIMULATOR_MODES)
    .required()
    .messages({ '*': `mode must be one of ${SIMULATOR_MODES.join(', ')}` }),
  count: Joi.number().integer().min(1).max(1000).default(1),
  lateMs: Joi.number().integer().min(0).max(600_000)
}).options({ stripUnknown: true })
