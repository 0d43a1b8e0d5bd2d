import zlib from 'node:zlib'

/**
 * A minimal .xlsx workbook (one sheet, inline strings) built with node:zlib alone: a zip of the five
 * parts a reader needs. Tests upload it as an agent's spreadsheet would be; nothing here is ours to test.
 */
export function xlsxOf(rows: (string | number)[][]): Buffer {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
  const col = (i: number) => String.fromCharCode(65 + i)
  const cell = (v: string | number, ref: string) =>
    typeof v === 'number' ? `<c r="${ref}"><v>${v}</v></c>` : `<c r="${ref}" t="inlineStr"><is><t>${esc(v)}</t></is></c>`
  const sheet = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows
    .map((r, i) => `<row r="${i + 1}">${r.map((v, j) => cell(v, `${col(j)}${i + 1}`)).join('')}</row>`)
    .join('')}</sheetData></worksheet>`
  const files: [string, string][] = [
    [
      '[Content_Types].xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`
    ],
    [
      '_rels/.rels',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`
    ],
    [
      'xl/workbook.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Orders" sheetId="1" r:id="rId1"/></sheets></workbook>`
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`
    ],
    ['xl/worksheets/sheet1.xml', sheet]
  ]
  return zip(files.map(([name, text]) => [name, Buffer.from(text, 'utf8')]))
}

/** A zip archive of deflated entries (PKWARE APPNOTE: local headers, the data, a central directory, its end record). */
function zip(entries: [string, Buffer][]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const [name, data] of entries) {
    const nameBuf = Buffer.from(name, 'utf8')
    const packed = zlib.deflateRawSync(data)
    const crc = zlib.crc32(data)
    // version, flags, method 8 (deflate), time and date 0, crc, sizes, name length: shared by both headers.
    const common: [number, number][] = [
      [2, 0],
      [2, 8],
      [4, 0],
      [4, crc],
      [4, packed.length],
      [4, data.length],
      [2, nameBuf.length],
      [2, 0]
    ]
    const local = fields([[4, 0x04034b50], [2, 20], ...common])
    const central = fields([[4, 0x02014b50], [2, 20], [2, 20], ...common, [2, 0], [2, 0], [2, 0], [4, 0], [4, offset]])
    locals.push(local, nameBuf, packed)
    centrals.push(central, nameBuf)
    offset += local.length + nameBuf.length + packed.length
  }
  const dir = Buffer.concat(centrals)
  const end = fields([
    [4, 0x06054b50],
    [2, 0],
    [2, 0],
    [2, entries.length],
    [2, entries.length],
    [4, dir.length],
    [4, offset],
    [2, 0]
  ])
  return Buffer.concat([...locals, dir, end])
}

/** Little-endian fields of 2 or 4 bytes, one after the other. */
function fields(list: [number, number][]): Buffer {
  const out = Buffer.alloc(list.reduce((n, [size]) => n + size, 0))
  let at = 0
  for (const [size, value] of list) at = size === 2 ? out.writeUInt16LE(value, at) : out.writeUInt32LE(value >>> 0, at)
  return out
}
