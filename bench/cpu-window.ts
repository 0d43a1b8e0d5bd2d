// Preload for bench/orders.ts (BENCH_CPU_PROFILE): the first SIGUSR2 starts a CPU profile of the server, the next
// writes it to CPU_WINDOW_FILE (a .cpuprofile, as `node --cpu-prof` writes), so a profile holds only the orders
// asked for, warm, and none of the start-up. A measuring aid for bench runs; never loaded by the app itself.
import fs from 'node:fs'
import { Session } from 'node:inspector/promises'

const file = process.env.CPU_WINDOW_FILE
if (file) {
  const session = new Session()
  session.connect()
  let on = false
  process.on('SIGUSR2', async () => {
    if (!on) {
      on = true
      await session.post('Profiler.enable')
      // 100 us between samples: an order is a few milliseconds of CPU.
      await session.post('Profiler.setSamplingInterval', { interval: 100 })
      await session.post('Profiler.start')
      fs.writeFileSync(`${file}.on`, '')
      return
    }
    on = false
    const { profile } = await session.post('Profiler.stop')
    fs.writeFileSync(file, JSON.stringify(profile))
  })
}
