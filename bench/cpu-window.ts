// Preload for bench/orders.ts (BENCH_CPU_PROFILE): the first SIGUSR2 starts a CPU profile of the server, the next
// writes it to CPU_WINDOW_FILE, so a profile holds only the orders asked for, warm, and none of the start-up.
// A measuring aid for bench runs; never loaded by the app itself.
import fs from 'node:fs'
import { startCpuProfile } from './cpu-profile.ts'

const file = process.env.CPU_WINDOW_FILE
if (file) {
  let profiling: Awaited<ReturnType<typeof startCpuProfile>> | undefined
  process.on('SIGUSR2', async () => {
    if (!profiling) {
      profiling = await startCpuProfile(file)
      fs.writeFileSync(`${file}.on`, '')
      return
    }
    const done = profiling
    profiling = undefined
    await done.stop()
  })
}
