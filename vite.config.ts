import purgeCss from '@fullhuman/postcss-purgecss'
import type { AcceptedPlugin } from 'postcss'
import react from '@vitejs/plugin-react'
import vike from 'vike/plugin'
import { defineConfig } from 'vite'
import { compression, defineAlgorithm } from 'vite-plugin-compression2'
import fs from 'node:fs'
import zlib from 'node:zlib'
import * as sass from 'sass'
import { compileHints } from './scripts/compile-hints-plugin.ts'
import { preloadLists, withoutChunksOnEveryPage } from './scripts/preload-lists-plugin.ts'
import { serviceWorker } from './scripts/service-worker-plugin.ts'
import { stacklessReactErrors } from './scripts/stackless-react-errors-plugin.ts'
import { vikeStartApart } from './scripts/vike-start-apart-plugin.ts'

// Bulma's own Sass (a dependency) uses syntax Sass now warns about, dozens of times per build: none
// of it is ours to fix, so only our stylesheets' warnings are shown.
const SASS_OPTIONS = { loadPaths: ['node_modules'], quietDeps: true }

// Lean CSS: at build, drop the Bulma rules and custom properties that no page or component names.
// Class names built at run time must be spelled whole in the source (or listed in the safelist).
// PurgeCSS weighs custom properties one stylesheet at a time: keep in the public CSS every Bulma
// variable that the portal's stylesheet and the pages' own CSS files read, and those they are made of.
function variablesReadElsewhere(): string[] {
  const reads = (css: string) => [...css.matchAll(/var\((--[\w-]+)/g)].map((m) => m[1])
  const texts = [sass.compile('renderer/styles/portal.scss', SASS_OPTIONS).css]
  for (const dir of ['pages', 'renderer']) {
    for (const f of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })) if (f.endsWith('.css')) texts.push(fs.readFileSync(`${dir}/${f}`, 'utf8'))
  }
  const publicCss = sass.compile('renderer/styles/public.scss', SASS_OPTIONS).css
  const madeOf = new Map<string, string[]>()
  for (const m of publicCss.matchAll(/(--[\w-]+)\s*:([^;}]*)/g)) madeOf.set(m[1], [...(madeOf.get(m[1]) ?? []), ...reads(m[2])])
  const keep = new Set<string>()
  const todo = texts.flatMap(reads)
  for (let v = todo.pop(); v; v = todo.pop()) {
    if (keep.has(v)) continue
    keep.add(v)
    todo.push(...(madeOf.get(v) ?? []))
  }
  return [...keep]
}

// (A CommonJS module whose types declare an ES default export.)
const purgeCSSPlugin = ((purgeCss as unknown as { default?: unknown }).default ?? purgeCss) as (o: object) => AcceptedPlugin
const purge = purgeCSSPlugin({
  content: ['pages/**/*.{ts,tsx}', 'renderer/**/*.{ts,tsx}'],
  safelist: {
    standard: ['html', 'body', /^is-(dark|light)$/, /^medal-\d$/],
    deep: [/data-theme/],
    variables: variablesReadElsewhere()
  },
  variables: true,
  keyframes: true,
  fontFace: true
})

// The code every public page runs (React, the renderer's shell, the shared vocabulary) in one chunk: as a
// dozen small files, each compressed alone, it cost a public page ~3 KB more brotli and a request each.
// The portals' shells, the idle warning and the helpers only portal pages, dialogs or parts loaded on demand
// (My Orders' delivery badge) use stay out, so they are never in a visitor's first load; stylesheets are left to Vite's CSS split.
const PORTAL_ONLY =
  /[\\/]renderer[\\/](layouts[\\/](Admin|Agent|Portal)Layout|ui[\\/](SessionTimeout|RefundDialog|DeliveryBadge|Pager|SelectField|page-items|useEscape|useFocusTrap|useReloadEffect))\./
const SHELL = /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]|[\\/](renderer|server[\\/]lib)[\\/].*\.(tsx?|js)$|[\\/]pages[\\/]\+Layout\.ts$/
const inShell = (id: string) => SHELL.test(id) && !PORTAL_ONLY.test(id)
// What Vike's own entry imports (the preload helper, Rolldown's runtime) stays out of the shell: the browser
// then evaluates Vike's entry in one task and the shell (React, react-dom, the renderer) with the page in a
// later one, instead of both in one long task (ADR 0044). The priority lets this group take the helper, which
// the shell's group would otherwise pull in as a dependency of its modules.
const RUNTIME = /^\0vite[\\/]preload-helper|rolldown[\\/]runtime/
// What a phone receives, compressed once at build: gzip at its best level, brotli at its best quality.
const GZIP_LEVEL = 9
const BROTLI_QUALITY = 11

export default defineConfig(({ command }) => ({
  plugins: [
    react(),
    vike(),
    stacklessReactErrors(),
    vikeStartApart(),
    serviceWorker(),
    preloadLists(),
    compileHints({ gzipLevel: GZIP_LEVEL, brotliQuality: BROTLI_QUALITY }),
    // What a phone receives: every text asset also as .br and .gz, served as-is by server/http/pages.ts
    // (brotli at its best level once at build, instead of a fast level on every request).
    compression({
      include: /\.(js|mjs|css|svg|json|webmanifest|txt|xml)$/,
      threshold: 512,
      algorithms: [
        defineAlgorithm('gzip', { level: GZIP_LEVEL }),
        defineAlgorithm('brotliCompress', { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } })
      ],
      logLevel: 'silent'
    })
  ],
  // Several test runs may build at once (under a lock); keeping old hashed files lets a server
  // started from an earlier build keep serving its assets.
  build: {
    emptyOutDir: process.env.VITE_KEEP_OUTDIR ? false : true,
    modulePreload: { resolveDependencies: withoutChunksOnEveryPage },
    // apexcharts (~1 MB, loaded lazily on admin pages only: DESIGN.md) is the one chunk above Vite's
    // 500 kB default; any other chunk that large still warns.
    chunkSizeWarningLimit: 1100,
    // Timings of a build on a busy machine say nothing anyone acts on.
    rolldownOptions: {
      checks: { bundlerTimings: false },
      output: {
        codeSplitting: {
          groups: [
            { name: 'shell', test: inShell },
            { name: 'runtime', test: RUNTIME, priority: 1 }
          ]
        }
      }
    }
  },
  css: { preprocessorOptions: { scss: { quietDeps: true } }, postcss: { plugins: command === 'build' ? [purge] : [] } }
}))
