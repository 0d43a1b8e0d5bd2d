import react from '@vitejs/plugin-react'
import vike from 'vike/plugin'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [react(), vike()],
  // Several test runs may build at once (under a lock); keeping old hashed files lets a server
  // started from an earlier build keep serving its assets.
  build: { emptyOutDir: process.env.VITE_KEEP_OUTDIR ? false : true },
  css: { preprocessorOptions: {} },
})
