// Reads bench/trace-requests.ts's file and prints where the requests to one path went, phase by phase: each
// gap between two marks in a row (a middleware's turn, a statement's round trip, the wait between them), its
// mean, p50 and p99 over the requests, in the order first seen. Used by bench/orders.ts with BENCH_TRACE=1.
import fs from 'node:fs'

type Line = { method: string; url: string; marks: [number, string][] }

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)
const ms = (x: number) => x.toFixed(2).padStart(7)

/** The phase table of the traced requests `METHOD url` starting with `prefix`; the last `count` of them. */
export function phaseTable(file: string, prefix: string, count: number): string[] {
  const lines = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line)
    .filter((l) => `${l.method} ${l.url}`.startsWith(prefix))
    .slice(-count)
  const phases = new Map<string, number[]>()
  const finish: number[] = []
  // Before the first statement went out, and after the last one answered before the last byte: the request's own edges.
  const head: number[] = []
  const tail: number[] = []
  for (const { marks } of lines) {
    const end = marks.findIndex((m) => m[1] === 'finish')
    const firstSent = marks.find((m) => m[1].startsWith('sql> '))
    const lastAnswer = marks.slice(0, end).findLast((m) => m[1].startsWith('sql< '))
    if (firstSent) head.push(firstSent[0])
    if (lastAnswer && end >= 0) tail.push(marks[end]![0] - lastAnswer[0])
    let prev: [number, string] = [0, 'arrive']
    for (const m of marks) {
      const key = `${prev[1]}  ->  ${m[1]}`
      const list = phases.get(key) ?? []
      list.push(m[0] - prev[0])
      phases.set(key, list)
      prev = m
    }
    finish.push(marks.find((m) => m[1] === 'finish')?.[0] ?? Number.NaN)
  }
  const out = [`${prefix}: ${lines.length} requests, arrival to last byte: mean ${ms(mean(finish))}  p50 ${ms(pct(finish, 50))}  p99 ${ms(pct(finish, 99))} ms`]
  for (const [name, xs] of [
    ['arrival to the first statement sent', head],
    ['the last statement answered to the last byte', tail]
  ] as const)
    out.push(`  ${name}: mean ${ms(mean(xs))}  p50 ${ms(pct(xs, 50))}  p99 ${ms(pct(xs, 99))} ms`)
  out.push(`   mean      p50      p99   seen  phase (from mark -> to mark)`)
  for (const [key, xs] of phases) out.push(`${ms(mean(xs))}  ${ms(pct(xs, 50))}  ${ms(pct(xs, 99))}  ${String(xs.length).padStart(5)}  ${key}`)
  return out
}
