import { expect } from 'chai'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { buildPages } from '../../scripts/build-pages.ts'

describe('the page build as npm start and npm test run it', () => {
  it('keeps a failed build short on the console but shows the end of its log, where the reason is', async () => {
    const logFile = path.join(os.tmpdir(), `datahub-build-${process.pid}`, 'build.log')
    const said: string[] = []
    const errors: string[] = []
    const consoleError = console.error
    console.error = (...a: unknown[]) => void errors.push(a.join(' '))
    try {
      // A build that cannot even start: node refuses a preload that does not exist.
      const ok = await buildPages({ logFile, env: { ...process.env, NODE_OPTIONS: '--import=/no/such/preload-for-the-test.mjs' }, say: (l) => said.push(l) })
      expect(ok).to.equal(false)
    } finally {
      console.error = consoleError
    }
    expect(said).to.have.length(1)
    expect(said[0]).to.match(/^Building the pages \(vite build; full output in .*build\.log\)\.\.\.$/)
    expect(fs.readFileSync(logFile, 'utf8')).to.include('preload-for-the-test.mjs')
    expect(errors).to.have.length(1)
    expect(errors[0]).to.include(`vite build failed (exit 1); the last`)
    expect(errors[0]).to.include('preload-for-the-test.mjs')
    fs.rmSync(path.dirname(logFile), { recursive: true, force: true })
  })
})
