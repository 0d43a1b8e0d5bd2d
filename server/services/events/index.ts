import { createEventBus, type EventBus } from './bus.ts'
import type { DomainEvents, DomainEventScopes } from './catalogue.ts'

export type { DomainEvents, DomainEventScopes } from './catalogue.ts'

/** The one bus of the service container: publishers and subscribers of the domain's facts share it. */
export type Events = EventBus<DomainEvents, DomainEventScopes>

export const createDomainEvents = (): Events => createEventBus<DomainEvents, DomainEventScopes>()
