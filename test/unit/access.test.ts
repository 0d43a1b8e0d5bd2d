import { expect } from 'chai'
import { homeFor, redirectFor } from '../../renderer/access.ts'

describe('route access (renderer/access.ts)', () => {
  const admin = { role: 'ADMIN' as const }
  const agent = { role: 'AGENT' as const }
  const buyer = { role: 'PUBLIC' as const }

  it('sends visitors from protected areas to /login', () => {
    expect(redirectFor('/admin/orders', null, true)).to.equal('/login')
    expect(redirectFor('/agent/dashboard', null, true)).to.equal('/login')
  })
  it('lets visitors use the public pages, including agent registration', () => {
    for (const p of ['/', '/data-services', '/afa', '/agent/register', '/login', '/payment-callback']) expect(redirectFor(p, null, true)).to.equal(null)
  })
  it('sends a wrong role to its own area', () => {
    expect(redirectFor('/admin/overview', agent, true)).to.equal('/agent/dashboard')
    expect(redirectFor('/agent/orders', admin, true)).to.equal('/admin/overview')
    expect(redirectFor('/admin/users', buyer, true)).to.equal('/')
    expect(homeFor('ADMIN')).to.equal('/admin/overview')
  })
  it('closes everything but /, /login and the admin pages when the platform is closed', () => {
    expect(redirectFor('/data-services', null, false)).to.equal('/')
    expect(redirectFor('/agent/dashboard', agent, false)).to.equal('/')
    expect(redirectFor('/login', null, false)).to.equal(null)
    expect(redirectFor('/admin/overview', admin, false)).to.equal(null)
    expect(redirectFor('/', null, false)).to.equal(null)
  })
  it('keeps password recovery open while the platform is closed (an admin may need it to get in)', () => {
    for (const p of ['/forgot', '/reset']) {
      expect(redirectFor(p, null, false)).to.equal(null)
      expect(redirectFor(p, null, true)).to.equal(null)
    }
  })
})
