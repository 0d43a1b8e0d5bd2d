import fs from 'node:fs'
import { startTestApp } from './server.ts'

// Root hooks for the mutation run (scripts/mutants.ts). Stryker's mocha runner runs the tests again
// for every mutant in the same process, so the app and its database start once and stay up between
// runs (each test resets the database itself); Stryker kills the process tree, PostgreSQL included, at the end.
export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(120_000)
    // Stryker's sandbox (the working folder) is private to its owner; the postgres user may pass through it,
    // so the killed worker's cluster stays in the sandbox, removed with it, instead of a temporary folder left behind.
    fs.chmodSync(process.cwd(), fs.statSync(process.cwd()).mode | 0o001)
    await startTestApp()
  }
}
