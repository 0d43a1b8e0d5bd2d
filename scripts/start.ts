// `npm start`: the one-machine start. Builds the pages when the build is missing or older than the
// sources, keeps a generated session secret in DATA_DIR when SESSION_SECRET is not set, then serves.
// Several instances, or a serving machine that must never build: `npm run build`, then `npm run start:prod`.
// The server runs in this process: an uncaught error ends it with exit 1, and nothing here restarts it.
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { buildPages } from './build-pages.ts'

const root = path.resolve(import.meta.dirname, '..')
const marker = path.join(root, 'dist/server/entry.mjs')

function newestMtime(dir: string): number {
  let newest = 0
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs)
  }
  return newest
}

const sources = ['pages', 'renderer', 'vite.config.ts', 'package-lock.json'].map((p) => path.join(root, p))
const built = fs.existsSync(marker) ? fs.statSync(marker).mtimeMs : 0
const stale = sources.some((s) => fs.existsSync(s) && (fs.statSync(s).isDirectory() ? newestMtime(s) : fs.statSync(s).mtimeMs) > built)
const dataDir = path.resolve(process.env.DATA_DIR || '.data')
if (stale && !(await buildPages({ logFile: path.join(dataDir, 'build.log') }))) process.exit(1)
process.env.NODE_ENV ??= 'production'
if (!process.env.SESSION_SECRET) {
  const file = path.join(dataDir, 'session-secret')
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true })
    fs.writeFileSync(file, crypto.randomBytes(48).toString('base64url'), { mode: 0o600 })
  }
  process.env.SESSION_SECRET = fs.readFileSync(file, 'utf8').trim()
}
const { main } = await import('../main.ts')
main(false)
