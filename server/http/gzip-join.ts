import zlib from 'node:zlib'

/**
 * A gzip body made of pieces compressed ahead of time with fresh bytes between them, without
 * compressing anything per request (RFC 1951, 1952). Each piece is raw deflate ended by a sync flush,
 * which leaves the stream on a byte boundary and its last block not final, so the next block can be
 * any block: the fresh bytes go in as a stored (uncompressed) block, and an empty final block closes
 * the stream. Pieces never refer back into one another, which costs a little size at each cut.
 */
export interface DeflatedParts {
  /** Raw deflate of each piece, sync-flushed. */
  deflated: Buffer[]
  /** CRC-32 of the first piece; the rest is summed per request, since it follows fresh bytes. */
  firstCrc: number
  /** Bytes of all pieces together, uncompressed. */
  length: number
}

const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]) // deflate, no flags, no mtime, OS unknown
const FINAL_BLOCK = Buffer.from([0x03, 0x00]) // BFINAL=1, fixed codes, end of block

export function deflatedParts(parts: Buffer[]): DeflatedParts {
  return {
    deflated: parts.map((p) => zlib.deflateRawSync(p, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH })),
    firstCrc: zlib.crc32(parts[0] ?? Buffer.alloc(0)),
    length: parts.reduce((n, p) => n + p.length, 0)
  }
}

/** A stored block holding `bytes` (at most 65,535), for a stream that stands on a byte boundary. */
function storedBlock(bytes: Buffer): Buffer {
  if (bytes.length > 0xffff) throw new RangeError('a stored block holds at most 65535 bytes')
  const head = Buffer.alloc(5)
  head[0] = 0 // BFINAL=0, BTYPE=00; the other five bits pad to the byte
  head.writeUInt16LE(bytes.length, 1)
  head.writeUInt16LE(~bytes.length & 0xffff, 3)
  return Buffer.concat([head, bytes])
}

/** The gzip file of the pieces joined by `between`; `plain` are the pieces `deflated` was made from. */
export function gzipJoin(parts: DeflatedParts, plain: Buffer[], between: Buffer): Buffer {
  const chunks: Buffer[] = [HEADER, parts.deflated[0]!]
  let crc = parts.firstCrc
  const middle = storedBlock(between)
  for (let i = 1; i < plain.length; i++) {
    chunks.push(middle, parts.deflated[i]!)
    crc = zlib.crc32(plain[i]!, zlib.crc32(between, crc))
  }
  const trailer = Buffer.alloc(8)
  trailer.writeUInt32LE(crc >>> 0, 0)
  trailer.writeUInt32LE((parts.length + between.length * (plain.length - 1)) >>> 0, 4)
  chunks.push(FINAL_BLOCK, trailer)
  return Buffer.concat(chunks)
}
