import type { Plugin, Rollup } from 'vite'

/** Vike's client entry: it imports the entry of the page the browser is on, on demand. */
const VIKE_ENTRY = (chunk: { isEntry: boolean; facadeModuleId: string | null }) =>
  chunk.isEntry && /[\\/]vike[\\/]dist[\\/]client[\\/]runtime-server-routing[\\/]entry\.js$/.test(chunk.facadeModuleId ?? '')
/** The map Vite writes on the chunk's first line, and each import's list of what to preload with it. */
const MAP = /^const __vite__mapDeps=\(i,m=__vite__mapDeps,d=\(m\.f\|\|\(m\.f=\[[^\]]*\]\)\)\)=>i\.map\(i=>d\[i\]\);\n/m
const LIST = /__vite__mapDeps\(\[[\d,]*\]\)/g

/**
 * Vite writes beside each of Vike's imports of a page's entry the files to preload with it: for 56 pages every chunk and
 * stylesheet of the build, in every first load (~1.2 KB brotli). With server routing the browser only imports the entry
 * of the page it is on, and that page's HTML already names those files (Vike's modulepreload and stylesheet links; the
 * preload would skip them). So the lists are emptied in Vike's entry; lazy code elsewhere (the payment dialog, the
 * checkers' form) keeps its lists, which nothing else names. Runs before the compile hints (compile-hints-plugin.ts),
 * which compress the entry again from its final text; the file's name changes with it (augmentChunkHash).
 * The build fails when the entry has no such map, so a Vike or Vite change is looked at again.
 */
function noPagePreloadLists(): Plugin {
  return {
    name: 'datahub:no-page-preload-lists',
    apply: 'build',
    applyToEnvironment: (env) => env.name === 'client',
    augmentChunkHash(chunk) {
      return VIKE_ENTRY(chunk) ? 'no-page-preload-lists' : undefined
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const entries = Object.values(bundle).filter((f) => f.type === 'chunk' && VIKE_ENTRY(f))
        const entry = entries[0]
        if (entries.length !== 1 || entry?.type !== 'chunk' || !MAP.test(entry.code) || !entry.code.match(LIST)?.length)
          this.error(
            `page preload lists: expected Vike's server-routing entry with Vite's preload map, found ${entries.map((e) => e.fileName).join(', ') || 'none'}`
          )
        entry.code = entry.code.replace(MAP, '').replace(LIST, '[]')
      }
    }
  }
}

/** The chunks every page's entry imports statically (Rolldown's runtime, the preload helper, the shell): here on any page. */
let onEveryPage = new Set<string>()

function staticClosure(bundle: Rollup.OutputBundle, name: string): Set<string> {
  const seen = new Set<string>()
  for (let todo = [name], n = todo.pop(); n !== undefined; n = todo.pop()) {
    const chunk = bundle[n]
    if (seen.has(n) || chunk?.type !== 'chunk') continue
    seen.add(n)
    todo.push(...chunk.imports)
  }
  return seen
}

/** Notes, before Vite writes the preload lists, which chunks every page has loaded before any of its code runs. */
function chunksOnEveryPage(): Plugin {
  return {
    name: 'datahub:chunks-on-every-page',
    apply: 'build',
    applyToEnvironment: (env) => env.name === 'client',
    generateBundle: {
      order: 'pre',
      handler(_options, bundle) {
        const pages = Object.values(bundle).filter((f) => f.type === 'chunk' && f.isEntry && /^assets\/entries\/pages_/.test(f.fileName))
        if (!pages.length) this.error('preload lists: no page entry in the client build')
        const [first, ...rest] = pages.map((p) => staticClosure(bundle, p.fileName))
        onEveryPage = new Set([...first!].filter((n) => rest.every((c) => c.has(n))))
      }
    }
  }
}

/**
 * `build.modulePreload.resolveDependencies`: a lazy chunk's list leaves out the chunks every page has already loaded (its
 * entry imports them statically, so they are in before any of the page's code runs); the list only named them to be skipped.
 */
export const withoutChunksOnEveryPage = (_file: string, deps: string[]) => deps.filter((d) => !onEveryPage.has(d))

/** Vite's lists of files to preload with each dynamic import, cut to what the browser does not have already. */
export const preloadLists = (): Plugin[] => [chunksOnEveryPage(), noPagePreloadLists()]
