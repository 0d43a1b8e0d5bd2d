import { expect } from 'chai'
import { keyBytesOf, loadEnv } from '../../server/env.ts'
import { createSecretBox } from '../../server/lib/secret-box.ts'

// Checker PINs at rest (ADR 0040): AES-256-GCM under VOUCHER_ENCRYPTION_KEY.
const HEX = 'ab'.repeat(32)

describe('secret box (checker PINs)', () => {
  it('seals with a fresh IV each time and opens only with the same key', () => {
    const box = createSecretBox({ NODE_ENV: 'production', VOUCHER_ENCRYPTION_KEY: HEX })
    const a = box.seal('123456789012')
    const b = box.seal('123456789012')
    expect(a)
      .to.match(/^sealed:v1:/)
      .and.not.include('123456789012')
    expect(a).to.not.equal(b)
    expect(box.open(a)).to.equal('123456789012')
    const other = createSecretBox({ NODE_ENV: 'production', VOUCHER_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') })
    expect(() => other.open(a)).to.throw()
    // A changed byte fails the tag instead of opening to garbage.
    const raw = Buffer.from(a.slice('sealed:v1:'.length), 'base64')
    raw[raw.length - 1] ^= 1
    expect(() => box.open(`sealed:v1:${raw.toString('base64')}`)).to.throw()
  })

  it('takes the key as 64 hex digits or base64 of 32 bytes, refuses anything else, and has no stand-in in production', () => {
    expect(keyBytesOf(HEX)?.length).to.equal(32)
    expect(keyBytesOf(Buffer.alloc(32, 1).toString('base64'))?.length).to.equal(32)
    expect(keyBytesOf('short')).to.equal(null)
    expect(keyBytesOf(Buffer.alloc(31, 1).toString('base64'))).to.equal(null)
    expect(() => loadEnv({ VOUCHER_ENCRYPTION_KEY: 'not-a-key' }, {}, { server: false })).to.throw('VOUCHER_ENCRYPTION_KEY must be 32 bytes')
    expect(() => createSecretBox({ NODE_ENV: 'production' }).seal('1234')).to.throw('VOUCHER_ENCRYPTION_KEY is not set')
    const dev = createSecretBox({ NODE_ENV: 'development' })
    expect(dev.configured).to.equal(false)
    expect(dev.open(dev.seal('1234'))).to.equal('1234')
  })
})
