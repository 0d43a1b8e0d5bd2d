// `npm test [files or globs...]`: builds the pages, then runs unit, integration and browser tests
// with mocha, and ends with one summary line 'N passed, N failed, N skipped'.
import fs from 'node:fs'
import path from 'node:path'
import Mocha from 'mocha'
import { buildPages } from './build-pages.ts'

const root = path.resolve(import.meta.dirname, '..')
process.chdir(root)
process.env.NODE_ENV = 'test'

const args = process.argv.slice(2)
const grep = args.includes('--grep') ? args[args.indexOf('--grep') + 1] : undefined
const patterns = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--grep')

if (!process.env.SKIP_BUILD || !fs.existsSync('dist/server/entry.mjs')) {
  fs.mkdirSync('.data', { recursive: true })
  // Several runs may share this folder; one build at a time, and old hashed assets stay for running servers.
  const built = await buildPages({
    logFile: '.data/test-build.log',
    lockFile: '.data/build.lock',
    env: { ...process.env, VITE_KEEP_OUTDIR: '1', NODE_ENV: 'production' }
  })
  if (!built) process.exit(1)
}

function listTests(dir: string): string[] {
  if (!fs.existsSync(dir)) return []
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => path.join(dir, f))
    .sort()
}

const files = patterns.length
  ? patterns.flatMap((p) => (fs.existsSync(p) && fs.statSync(p).isDirectory() ? listTests(p) : [p]))
  : [...listTests('test/unit'), ...listTests('test/integration'), ...listTests('test/e2e')]

const { mochaHooks } = await import('../test/helpers/hooks.ts')
const mocha = new Mocha({ timeout: 20_000, reporter: 'spec', rootHooks: mochaHooks, grep })
for (const f of files) mocha.addFile(path.resolve(f))
await mocha.loadFilesAsync()
const runner = mocha.run((failures) => {
  const s = runner.stats!
  console.log(`\ntests: ${s.passes} passed, ${s.failures} failed, ${s.pending} skipped`)
  // react-streaming and pools leave timers behind; the run is over.
  process.exit(failures ? 1 : 0)
})
