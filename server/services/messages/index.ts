export * from './admin-messages.ts'
export * from './inbox.ts'
export * from './priority.ts'
