import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { Plugin, Rollup } from 'vite'

const SOURCE = path.resolve(import.meta.dirname, '../renderer/offline/service-worker.js')
/** The client entries of the public pages (and Vike's own entry), as Vike names them in the build. */
const PUBLIC_ENTRY = /^assets\/entries\/(entry-|pages_(index|data-services|afa|login|forgot|agent_register|shop_))/
const VIKE_ENTRY = /^assets\/entries\/entry-/

/** Every chunk `names` import statically, themselves included. */
function staticClosure(bundle: Rollup.OutputBundle, names: string[]): Set<string> {
  const seen = new Set<string>()
  for (let todo = [...names], n = todo.pop(); n !== undefined; n = todo.pop()) {
    const chunk = bundle[n]
    if (seen.has(n) || chunk?.type !== 'chunk') continue
    seen.add(n)
    todo.push(...chunk.imports)
  }
  return seen
}

/**
 * The code the public pages load only when it is used (the payment dialog, the agents' wallet payment): a
 * page's HTML does not name it, so the worker is told to save it at install, and a page opened
 * offline can still open it.
 */
function lazyPublicAssets(bundle: Rollup.OutputBundle): string[] {
  const entries = Object.keys(bundle).filter((n) => PUBLIC_ENTRY.test(n))
  const first = staticClosure(bundle, entries)
  // Vike's own entry imports every page on demand: what it imports is other pages, not lazy code of these.
  const lazy = staticClosure(
    bundle,
    [...first].filter((n) => !VIKE_ENTRY.test(n)).flatMap((n) => (bundle[n] as Rollup.OutputChunk).dynamicImports)
  )
  const files = [...lazy].filter((n) => !first.has(n))
  const css = files.flatMap((n) => [...((bundle[n] as Rollup.OutputChunk & { viteMetadata?: { importedCss: Set<string> } }).viteMetadata?.importedCss ?? [])])
  return [...files, ...css].sort().map((n) => `/${n}`)
}

/**
 * Writes the service worker into the client build as /sw.js (ADR 0044), its cache named after a hash
 * of every file this build wrote and of the worker itself: a deploy that changes anything gives the
 * browser a different worker, which installs beside the old one and deletes the old cache.
 */
export function serviceWorker(): Plugin {
  return {
    name: 'datahub:service-worker',
    apply: 'build',
    applyToEnvironment: (env) => env.name === 'client',
    generateBundle(_options, bundle) {
      const source = fs.readFileSync(SOURCE, 'utf8')
      const hash = crypto.createHash('sha256').update(source)
      for (const name of Object.keys(bundle).sort()) hash.update(name)
      const version = hash.digest('hex').slice(0, 12)
      const code = source.replace('__BUILD_VERSION__', version).replace('__LAZY_ASSETS__', JSON.stringify(lazyPublicAssets(bundle)))
      this.emitFile({ type: 'asset', fileName: 'sw.js', source: code })
    }
  }
}
