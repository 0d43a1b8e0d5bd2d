import type { Plugin } from 'vite'
import zlib from 'node:zlib'

/** V8's compile hint: every function of the file is compiled with the file, while it streams, off the main thread. */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n'

/** The chunks every public page evaluates at once and whose functions nearly all run then: Vike's client entry and the shell. */
const HINTED = (chunk: { name: string; isEntry: boolean; facadeModuleId: string | null }) =>
  chunk.name === 'shell' ||
  (chunk.isEntry && /[\\/]vike[\\/]dist[\\/]client[\\/]runtime-(server|client)-routing[\\/]entry\.js$/.test(chunk.facadeModuleId ?? ''))

/**
 * Puts V8's compile hint at the top of Vike's client entry and of the shell chunk (ADR 0044). Without it V8 only
 * pre-parses each function when the file arrives and compiles it on the main thread at its first call: nearly all
 * of Vike's runtime and of React runs while the page starts, so that compiling was 20-50 ms (CPU x 4) of the
 * entry's task, the one task left over 50 ms. Chromium reads the hint only on the file's first line, and Vite
 * writes its preload map (`__vite__mapDeps`) there after the chunks are rendered, so the hint is put in last
 * and the .gz/.br beside the file are made again from the new text (what the server sends). The file names
 * still change with it (augmentChunkHash), so no browser or offline cache keeps a copy without it.
 * The build fails when it finds no such entry or shell, so a Vike or chunking change is looked at again.
 */
export function compileHints(opts: { gzipLevel: number; brotliQuality: number }): Plugin {
  return {
    name: 'datahub:compile-hints',
    apply: 'build',
    applyToEnvironment: (env) => env.name === 'client',
    augmentChunkHash(chunk) {
      return HINTED(chunk) ? COMPILE_HINT : undefined
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const hinted: string[] = []
        for (const file of Object.values(bundle)) {
          if (file.type !== 'chunk' || !HINTED(file)) continue
          if (!file.code.startsWith(COMPILE_HINT)) file.code = COMPILE_HINT + file.code
          hinted.push(file.fileName)
          const gz = bundle[`${file.fileName}.gz`]
          if (gz?.type === 'asset') gz.source = zlib.gzipSync(file.code, { level: opts.gzipLevel })
          const br = bundle[`${file.fileName}.br`]
          if (br?.type === 'asset') br.source = zlib.brotliCompressSync(file.code, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: opts.brotliQuality } })
        }
        const entries = hinted.filter((f) => /entries[\\/]entry-/.test(f))
        if (entries.length !== 1 || hinted.length !== 2)
          this.error(`compile hints: expected Vike's client entry and the shell chunk, found ${hinted.join(', ') || 'none'}`)
      }
    }
  }
}
