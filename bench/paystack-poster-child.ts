// The webhook bench's gateway, in a process of its own (forked by chargeSuccessClient in paystack-charge-success.ts):
// it signs and POSTs each payment's `charge.success` and reports when each POST started and the CPU it used, so the
// app's process counts only the app's CPU. It also answers the app's own calls to Paystack (its base URL is this
// process's `paystackApiFake`), so the app's reconcile jobs never reach api.paystack.co from a bench.
import { chargeSuccessPoster, paystackApiFake } from './paystack-charge-success.ts'

interface Batch {
  port: number
  secretKey: string
  atOnce: number
  references: string[]
  round: number
}

const api = await paystackApiFake()
let post: ReturnType<typeof chargeSuccessPoster> | undefined
process.on('message', async (m: Batch | 'stop') => {
  if (m === 'stop') {
    api.close()
    process.exit(0)
  }
  post ??= chargeSuccessPoster({ port: m.port, secretKey: m.secretKey, atOnce: m.atOnce })
  const sentAt: number[] = new Array(m.references.length)
  const cpu0 = process.cpuUsage()
  let next = 0
  try {
    await Promise.all(
      Array.from({ length: m.atOnce }, async () => {
        while (next < m.references.length) {
          const i = next++
          sentAt[i] = performance.timeOrigin + performance.now()
          api.paid.add(m.references[i]!)
          await post!(m.references[i]!, m.round)
        }
      })
    )
    const cpu = process.cpuUsage(cpu0)
    process.send!({ sentAt, cpuMs: (cpu.user + cpu.system) / 1000 })
  } catch (err) {
    process.send!({ error: (err as Error).message })
  }
})
process.send!({ ready: true, apiUrl: api.url })
