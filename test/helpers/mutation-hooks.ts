import fs from 'node:fs'
import { startTestApp } from './server.ts'

// Root hooks for the mutation run (scripts/mutants.ts). Stryker's mocha runner runs the tests again
// for every mutant in the same process, so the app and its database start once and stay up between
// runs (each test resets the database itself); Stryker kills the process tree, PostgreSQL included, at the end.
//
// They start when Stryker loads this file (its worker's set-up, with no time limit), not in a hook: a hook
// runs inside the first mutant's test run, whose time limit is the covering tests' time plus 15 s. A fresh
// worker (one after every timeout) needs 30 to 60 s on a loaded machine to start PostgreSQL and the app,
// so its first mutant timed out too, and so on: one timeout made the next, whatever the mutant did.

// Stryker's sandbox (the working folder) is private to its owner; the postgres user may pass through it,
// so the killed worker's cluster stays in the sandbox, removed with it, instead of a temporary folder left behind.
fs.chmodSync(process.cwd(), fs.statSync(process.cwd()).mode | 0o001)
await startTestApp()

export const mochaHooks = {
  // Already up (above); kept so the hook's contract holds if the file is ever loaded another way.
  async beforeAll(this: Mocha.Context) {
    this.timeout(120_000)
    await startTestApp()
  }
}
