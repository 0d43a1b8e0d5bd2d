import { startTestApp, stopTestApp } from './server.ts'

// Mocha root hooks: one app and database for the whole run.
export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(120_000)
    await startTestApp()
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(30_000)
    await stopTestApp()
  }
}
