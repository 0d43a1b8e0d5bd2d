// This process's CPU profiler for the benches: 100 us between samples, as an order is a few milliseconds of CPU.
// The profile is written as a .cpuprofile (as `node --cpu-prof` writes); bench/profile-groups.ts sums it.
import fs from 'node:fs'
import { Session } from 'node:inspector/promises'

/** Starts profiling this process; stop() writes the profile to `file`. */
export async function startCpuProfile(file: string): Promise<{ stop(): Promise<void> }> {
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.setSamplingInterval', { interval: 100 })
  await session.post('Profiler.start')
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop')
      fs.writeFileSync(file, JSON.stringify(profile))
      session.disconnect()
    }
  }
}
