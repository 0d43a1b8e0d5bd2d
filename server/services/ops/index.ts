export * from './metrics.ts'
export * from './pool-watch.ts'
