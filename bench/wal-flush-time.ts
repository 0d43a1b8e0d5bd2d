// What one WAL flush costs on this disk: an 8 kB write then fdatasync, as pg_test_fsync times it (the embedded
// PostgreSQL package ships no pg_test_fsync). PostgreSQL's docs suggest half of it as a first commit_delay.
//
//   node_modules/.bin/node bench/wal-flush-time.ts [folder, default .data] [times, default 300]
//
// Writes and removes one file in the folder (put it on the disk the cluster uses). Prints figures; asserts nothing.
import fs from 'node:fs'
import path from 'node:path'

const file = path.join(process.argv[2] ?? '.data', 'wal-flush-probe')
const times = Number(process.argv[3] ?? 300)
const fd = fs.openSync(file, 'w')
const block = Buffer.alloc(8192, 1)
const us: number[] = []
for (let i = 0; i < times; i++) {
  const t = process.hrtime.bigint()
  fs.writeSync(fd, block, 0, block.length, 0)
  fs.fdatasyncSync(fd)
  us.push(Number(process.hrtime.bigint() - t) / 1000)
}
fs.closeSync(fd)
fs.rmSync(file)
us.sort((a, b) => a - b)
const at = (p: number) => us[Math.floor(p * (us.length - 1))]!.toFixed(0)
const mean = (us.reduce((a, b) => a + b, 0) / us.length).toFixed(0)
console.log(`8 kB write + fdatasync, ${times} times in ${path.dirname(file)}: p50 ${at(0.5)} us, p90 ${at(0.9)} us, p99 ${at(0.99)} us, mean ${mean} us`)
