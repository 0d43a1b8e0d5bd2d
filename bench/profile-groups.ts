// Reads a .cpuprofile (bench/orders.ts with BENCH_CPU_PROFILE, or `node --cpu-prof`) and prints where the busy time
// went per order: each sample counted once, in the first group its stack reaches from the leaf (the innermost), then
// the top functions by self time. A measuring aid; asserts nothing.
//   node bench/profile-groups.ts <file.cpuprofile> [orders in the profile, 100]
import fs from 'node:fs'

interface Node {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
const [file, ordersArg = '100'] = process.argv.slice(2)
if (!file) throw new Error('usage: node bench/profile-groups.ts <file.cpuprofile> [orders]')
const orders = Number(ordersArg)
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] }
const byId = new Map(profile.nodes.map((n) => [n.id, n]))
const parent = new Map<number, number>()
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
const name = (n: Node) =>
  `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/\/.*?\/(server|models|bench)\//, '$1/')}:${n.callFrame.lineNumber + 1}`

const GROUPS: [string, RegExp][] = [
  ["the bench's statement log", /bench\/statement-log|writeFileUtf8/],
  ['socket writes (writev)', /^writev /],
  ['garbage collector', /garbage collector/],
  ['joi', /joi\/lib\//],
  ['express-session and the payments cookie', /express-session|uid-safe|cookie\/|cookie-signature|session-store|paid-cookie/],
  ['compression of the answer', /compression\/|zlib|compress\.ts|negotiator\/|accepts\/|vary\/|compressible\//],
  ['prom-client (metrics)', /prom-client\/|metrics\.ts/],
  ["pg's client", /pg\/lib|pg-protocol\/|pg-types\/|postgres-/],
  ['Sequelize', /sequelize\//],
  ['JSON body parser', /body-parser\/|raw-body\/|iconv-lite\/|type-is\/|content-type\/|media-typer\//],
  ['express router', /router\/|express\/lib/],
  ["Node's HTTP server", /node:_http|on-headers\/|on-finished\/|finalhandler\//],
  ['the debug module', /debug\/src/],
  ['app: orders', /services\/orders\//],
  ['app: payments', /services\/payments\//],
  ['app: other services', /server\/services\//],
  ['app: http', /server\/http\/|server\/app\.ts/],
  ['models', /models\//]
]
const groups = new Map<string, number>()
const self = new Map<string, number>()
let busy = 0
for (let i = 0; i < profile.samples.length; i++) {
  const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000
  const leaf = byId.get(profile.samples[i]!)!
  if (leaf.callFrame.functionName === '(idle)') continue
  busy += ms
  self.set(name(leaf), (self.get(name(leaf)) ?? 0) + ms)
  let group = 'other (event loop, streams, microtasks)'
  for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
    const hit = GROUPS.find(([, re]) => re.test(name(byId.get(id!)!)))
    if (hit) {
      group = hit[0]
      break
    }
  }
  groups.set(group, (groups.get(group) ?? 0) + ms)
}
const row = (ms: number, label: string) => `${(ms / orders).toFixed(3).padStart(8)} ms/order ${((100 * ms) / busy).toFixed(1).padStart(5)}%  ${label}`
console.log(`${file}: busy ${(busy / orders).toFixed(2)} ms per order over ${orders} orders`)
for (const [g, ms] of [...groups].sort((a, b) => b[1] - a[1])) console.log(row(ms, g))
console.log('top functions by self time:')
for (const [f, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(row(ms, f))
