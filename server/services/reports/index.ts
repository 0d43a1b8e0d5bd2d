export * from './admin-stats.ts'
export * from './public-stats.ts'
export * from './range.ts'
