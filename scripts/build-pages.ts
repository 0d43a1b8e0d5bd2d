// The page build (vite build) as `npm start` and `npm test` run it: its full output (asset list,
// warnings) goes to a log file, the console gets one line per finished part, and a failed build
// prints the log's last lines, so a CI log shows why without the hundreds of lines a good build writes.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const TAIL_LINES = 40

export interface BuildOptions {
  /** Where the build's own output goes (its folder is created). */
  logFile: string
  env?: NodeJS.ProcessEnv
  /** A lock file: builds sharing one checkout run one at a time (flock). */
  lockFile?: string
  /** Where progress lines go (console.log when absent). */
  say?: (line: string) => void
}

/** Runs vite build; resolves true when it succeeded. */
export function buildPages(opts: BuildOptions): Promise<boolean> {
  const say = opts.say ?? ((line: string) => console.log(line))
  fs.mkdirSync(path.dirname(opts.logFile), { recursive: true })
  const log = fs.createWriteStream(opts.logFile)
  const vite = [process.execPath, path.join(root, 'node_modules/vite/bin/vite.js'), 'build']
  const [cmd, ...args] = opts.lockFile ? ['flock', opts.lockFile, ...vite] : vite
  const started = Date.now()
  say(`Building the pages (vite build; full output in ${path.relative(process.cwd(), opts.logFile) || opts.logFile})...`)
  const child = spawn(cmd!, args, { cwd: root, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] })
  let part = ''
  let pending = ''
  const progress = (chunk: Buffer) => {
    log.write(chunk)
    pending += chunk.toString('utf8')
    const lines = pending.split('\n')
    pending = lines.pop() ?? ''
    for (const line of lines) {
      // Vite names each part it builds (client, ssr), then counts the modules it transformed.
      const building = /building (\w+) environment/.exec(line)
      if (building) say(`  ${(part = building[1]!)}: transforming modules...`)
      const transformed = /(\d+) modules transformed/.exec(line)
      if (transformed) say(`  ${part || 'pages'}: ${transformed[1]} modules transformed, writing the files...`)
    }
  }
  child.stdout!.on('data', progress)
  child.stderr!.on('data', progress)
  return new Promise((resolve) => {
    child.on('error', (err) => log.write(`could not run the build: ${err.message}\n`))
    child.on('close', (code) => {
      log.end(() => {
        if (code === 0) {
          say(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s`)
          return resolve(true)
        }
        const tail = fs.readFileSync(opts.logFile, 'utf8').trimEnd().split('\n').slice(-TAIL_LINES)
        console.error(`vite build failed (exit ${code}); the last ${tail.length} lines of ${opts.logFile}:\n${tail.join('\n')}`)
        resolve(false)
      })
    })
  })
}
