// How many times each process on an order's path went off its CPU and had to be scheduled again (context switches,
// /proc/<pid>/task/<tid>/status), by the server's thread name and PostgreSQL's process kind. On a busy host each such
// wake-up may wait for a CPU, so their count per order is the part of the tail the app's shape decides; unlike the
// latencies, it does not swing with what else runs on the machine. Linux only (empty elsewhere).
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

const read = (file: string) => {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return '' // a thread or process that ended between the listing and the read
  }
}
/** voluntary (it waited: a socket, a lock, a flush) and involuntary (taken off a CPU it still wanted) switches */
function switchesOf(file: string): { voluntary: number; involuntary: number } {
  const s = read(file)
  return {
    voluntary: Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(s)?.[1] ?? 0),
    involuntary: Number(/nonvoluntary_ctxt_switches:\s+(\d+)/.exec(s)?.[1] ?? 0)
  }
}
export type Switches = Record<string, { voluntary: number; involuntary: number }>
const add = (out: Switches, name: string, s: { voluntary: number; involuntary: number }) => {
  const o = (out[name] ??= { voluntary: 0, involuntary: 0 })
  o.voluntary += s.voluntary
  o.involuntary += s.involuntary
}

/** The server's switches by thread name ("node" MainThread, V8Worker, libuv-worker...). */
export function threadSwitches(pid: number): Switches {
  const out: Switches = {}
  let tasks: string[] = []
  try {
    tasks = readdirSync(`/proc/${pid}/task`)
  } catch {
    return out
  }
  for (const task of tasks) {
    const name = /^Name:\s+(.*)$/m.exec(read(`/proc/${pid}/task/${task}/status`))?.[1] ?? '?'
    add(out, `app ${name}`, switchesOf(`/proc/${pid}/task/${task}/status`))
  }
  return out
}

/** A PostgreSQL cluster's live processes' switches by kind: client backends, walwriter, checkpointer... */
export function postgresSwitches(dataDirectory: string): Switches {
  const out: Switches = {}
  let postmaster: number
  try {
    postmaster = Number(readFileSync(path.join(dataDirectory, 'postmaster.pid'), 'utf8').split('\n')[0])
  } catch {
    return out
  }
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue
    const stat = read(`/proc/${d}/stat`)
    if (!stat || Number(stat.split(') ')[1]!.split(' ')[1]) !== Number(postmaster)) continue
    const cmd = read(`/proc/${d}/cmdline`).replace(/\0/g, ' ').trim()
    const kind = /^postgres: \S+ \S+ (\d|\[local\])/.test(cmd) ? 'client backends' : cmd.replace(/^postgres: /, '').split(' ')[0]!
    add(out, `PostgreSQL ${kind}`, switchesOf(`/proc/${d}/status`))
  }
  return out
}

/** b - a, name by name */
export function switchesSince(a: Switches, b: Switches): Switches {
  const out: Switches = {}
  for (const [name, s] of Object.entries(b))
    out[name] = { voluntary: s.voluntary - (a[name]?.voluntary ?? 0), involuntary: s.involuntary - (a[name]?.involuntary ?? 0) }
  return out
}
