import { expect } from 'chai'
import fs from 'node:fs'
import path from 'node:path'
import { ClusterDirError, resolveClusterDir } from '../../models/embedded.ts'

describe('resolveClusterDir', () => {
  const base = path.resolve('.data/test-runs', `cluster-dir-${process.pid}`)
  after(() => fs.rmSync(base, { recursive: true, force: true }))

  it('is always the folder inside DATA_DIR', () => {
    expect(resolveClusterDir(path.join(base, 'shop'), 'pg', undefined, path.join(base, 'legacy'))).to.equal(path.join(base, 'shop', 'pg'))
  })

  it("refuses to start empty when an earlier version moved this shop's cluster out of the data folder, and says how to bring it back", () => {
    const dataDir = path.join(base, 'old-shop')
    const wanted = path.join(dataDir, 'pg')
    const legacyRoot = path.join(base, 'legacy')
    const legacy = path.join(legacyRoot, Buffer.from(wanted).toString('base64url').slice(-40))
    fs.mkdirSync(legacy, { recursive: true })
    fs.writeFileSync(path.join(legacy, 'PG_VERSION'), '18\n')
    expect(() => resolveClusterDir(dataDir, 'pg', undefined, legacyRoot)).to.throw(ClusterDirError, `move it with: mv ${legacy} ${wanted}`)
    // Once moved (or once the data folder has its own cluster), it starts as usual.
    fs.mkdirSync(wanted, { recursive: true })
    fs.renameSync(path.join(legacy, 'PG_VERSION'), path.join(wanted, 'PG_VERSION'))
    expect(resolveClusterDir(dataDir, 'pg', undefined, legacyRoot)).to.equal(wanted)
  })
})
