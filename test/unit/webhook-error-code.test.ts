import { expect } from 'chai'
import { errorCode } from '../../server/services/reseller-api/webhooks.ts'

// What a failed agent webhook leaves in the log and the job's error: a short code, never a message.
describe('an agent webhook failure as a short code', () => {
  it("takes the error's own code before its cause's: axios's timeout has a code and a cause without one", () => {
    expect(errorCode({ code: 'ECONNABORTED', cause: {} })).to.equal('ECONNABORTED')
    expect(errorCode({ cause: { code: 'ECONNREFUSED' } })).to.equal('ECONNREFUSED')
  })

  it('keeps only a whole code of capitals, digits and underscores; anything else is NETWORK_ERROR', () => {
    expect(errorCode({ code: 'EPRIVATEADDRESS' })).to.equal('EPRIVATEADDRESS')
    expect(errorCode({ code: 'see https://x.example ECONNRESET' })).to.equal('NETWORK_ERROR')
    expect(errorCode({ code: 'ECONNRESET at 10.0.0.1' })).to.equal('NETWORK_ERROR')
    expect(errorCode({ code: 42 })).to.equal('NETWORK_ERROR')
    expect(errorCode(null)).to.equal('NETWORK_ERROR')
  })
})
