import react from '@vitejs/plugin-react'
import vike from 'vike/plugin'
import { defineConfig } from 'vite'
import { compression, defineAlgorithm } from 'vite-plugin-compression2'
import zlib from 'node:zlib'

export default defineConfig({
  plugins: [
    react(),
    vike(),
    // What a phone receives: every text asset also as .br and .gz, served as-is by server/http/pages.ts
    // (brotli at its best level once at build, instead of a fast level on every request).
    compression({
      include: /\.(js|mjs|css|svg|json|webmanifest|txt|xml)$/,
      threshold: 512,
      algorithms: [
        defineAlgorithm('gzip', { level: 9 }),
        defineAlgorithm('brotliCompress', { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
      ],
      logLevel: 'silent',
    }),
  ],
  // Several test runs may build at once (under a lock); keeping old hashed files lets a server
  // started from an earlier build keep serving its assets.
  build: { emptyOutDir: process.env.VITE_KEEP_OUTDIR ? false : true },
  css: { preprocessorOptions: {} },
})
