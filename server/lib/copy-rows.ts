import { Readable } from 'node:stream'
import type { Connection, Submittable } from 'pg'

// Message types of PostgreSQL's protocol during COPY TO STDOUT.
const COPY_OUT_RESPONSE = 0x48 // 'H'
const COPY_DATA = 0x64 // 'd'
const COPY_DONE = 0x63 // 'c'
const ERROR_RESPONSE = 0x45 // 'E'
// May come between any two messages: a notice, a parameter's new value, a notification.
const ASYNC = new Set([0x4e, 0x53, 0x41]) // 'N', 'S', 'A'
const HEADER = 5 // type byte + length

const CR = 0x0d
const LF = 0x0a

type PgDataHandler = (chunk: Buffer) => void

/**
 * `COPY (...) TO STDOUT` on a node-postgres client, as a stream of the rows with CRLF ends (RFC 4180,
 * what Excel writes), counted in `rows`. PostgreSQL sends each row of a COPY as one CopyData message
 * ending in LF (the protocol's rule), so the row's end is the message's last byte: no byte of a row is
 * looked at, a line break inside a quoted field stays as it is, and the messages of one socket read go
 * out as one buffer. It reads the socket only as fast as the stream is read (back-pressure reaches
 * PostgreSQL). At an ErrorResponse or CopyDone the connection goes back to node-postgres, which reads
 * the rest. Like pg-copy-streams' `to`, which it replaces for the export (that one sliced every message
 * on its own and looked at every byte again to find the row ends).
 *
 * `done` settles when the statement has: a statement can fail after its last row (the export's
 * marking runs after the rows, ADR 0023), so a reader awaits it after the stream's end.
 */
export class CopyRows extends Readable implements Submittable {
  readonly text: string
  /** Rows so far (all of them once the stream has ended). */
  rows = 0
  private connection: Connection | undefined
  private pgOnData: PgDataHandler | undefined
  /** An incomplete message from the last read. */
  private rest: Buffer | undefined
  private wanted = false
  private forwarding = false
  private readonly onReadable = () => this.forward()
  /** Settles once PostgreSQL has answered the whole statement: ReadyForQuery, or its error. */
  readonly done: Promise<void>
  private settle!: (err?: Error) => void

  constructor(text: string) {
    super()
    this.text = text
    this.done = new Promise<void>((resolve, reject) => {
      this.settle = (err) => (err ? reject(err) : resolve())
    })
    this.done.catch(() => {}) // awaited by the reader; the stream carries the error too
  }

  submit(connection: Connection): void {
    this.connection = connection
    const socket = connection.stream
    const handlers = socket.listeners('data') as PgDataHandler[]
    if (handlers.length !== 1) throw new Error('CopyRows: expected the one data listener of node-postgres on the connection')
    this.pgOnData = handlers[0]
    socket.removeListener('data', this.pgOnData!)
    socket.pause()
    socket.on('readable', this.onReadable)
    connection.query(this.text)
  }

  override _read(): void {
    this.wanted = true
    this.forward()
  }

  private forward(): void {
    if (this.forwarding || !this.wanted || !this.connection) return
    this.forwarding = true
    const socket = this.connection.stream
    let chunk: Buffer | null
    while (this.wanted && this.connection && (chunk = socket.read() as Buffer | null) !== null) this.wanted = this.parse(chunk)
    this.forwarding = false
  }

  /** The complete messages of `chunk` (after what was left from the last read); false when the reader is full. */
  private parse(chunk: Buffer): boolean {
    const buf = this.rest ? Buffer.concat([this.rest, chunk]) : chunk
    this.rest = undefined
    // Each message gives at most its bytes less its header plus one (the CR): never more than it came in.
    const out = Buffer.allocUnsafe(buf.length)
    let o = 0
    let p = 0
    let end: 'done' | 'error' | 'other' | undefined
    while (p + HEADER <= buf.length) {
      const type = buf[p]!
      if (type === ERROR_RESPONSE) {
        end = 'error'
        break
      }
      const next = p + 1 + buf.readUInt32BE(p + 1)
      if (next > buf.length) break
      if (type === COPY_DATA) {
        const last = next - 1
        if (last >= p + HEADER && buf[last] === LF) {
          o += buf.copy(out, o, p + HEADER, last)
          out[o++] = CR
          out[o++] = LF
          this.rows++
        } else o += buf.copy(out, o, p + HEADER, next)
      } else if (type === COPY_DONE) {
        p = next
        end = 'done'
        break
      } else if (type !== COPY_OUT_RESPONSE && !ASYNC.has(type)) {
        end = 'other'
        break
      }
      p = next
    }
    const more = o > 0 ? this.push(out.subarray(0, o)) : true
    if (!end) {
      if (p < buf.length) this.rest = buf.subarray(p)
      return more
    }
    // node-postgres reads the rest: the error (which fails this stream) or the statement's end.
    this.detach(buf.subarray(p))
    if (end !== 'error') this.push(null)
    return false
  }

  private detach(unread: Buffer): void {
    const socket = this.connection!.stream
    socket.removeListener('readable', this.onReadable)
    socket.addListener('data', this.pgOnData!)
    this.connection = undefined
    this.pgOnData!(unread)
    // The socket was paused for `read()`: flowing again once node-postgres has its listener back.
    process.nextTick(() => socket.resume())
  }

  /** node-postgres's ErrorResponse for this statement (or the connection's end). */
  handleError(err: Error): void {
    this.settle(err)
    this.destroy(err)
  }

  handleCommandComplete(): void {}

  handleReadyForQuery(): void {
    this.settle()
  }
}
