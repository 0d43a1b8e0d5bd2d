// `npm start`: builds the pages when the build is missing or older than the sources, then serves it.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

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
if (stale) {
  console.log('Building the pages (vite build)...')
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build'], { cwd: root, stdio: 'inherit' })
  if (r.status !== 0) process.exit(r.status ?? 1)
}
process.env.NODE_ENV ??= 'production'
const { main } = await import('../server/index.ts')
main(false)
