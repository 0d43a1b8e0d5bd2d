import { expect } from 'chai'
import { newInput, refusalText } from '../../ussd/engine.ts'
import { ipAllowed } from '../../ussd/gate.ts'
import { paginate } from '../../ussd/menu.ts'
import { payerNetworkOf } from '../../ussd/networks.ts'
import { fit, formatSize, ghs, screen, SCREEN_MAX } from '../../ussd/text.ts'

const at = (text: string) => ({ gateway: 'africastalking', sessionId: 's', phone: '233241234567', serviceCode: null, network: null, text })

describe('ussd: pure parts', () => {
  it("takes the new input from Africa's Talking cumulative text", () => {
    expect(newInput(at('4826'), 0)).to.equal('4826')
    expect(newInput(at('4826*1'), 4)).to.equal('1')
    expect(newInput(at('4826*1*'), 6)).to.equal('') // an empty answer
    expect(newInput(at('4826*1*2*3'), 6)).to.equal('2*3') // taken as one (invalid) answer, not two
    expect(newInput(at('4826*1'), 6)).to.equal(null) // the same request again
    expect(newInput(at('48'), 4)).to.equal(false) // shorter than what came before
    expect(newInput(at('48261'), 4)).to.equal(false) // does not continue with '*'
    expect(newInput({ ...at(''), text: undefined, lastInput: '7' }, 0)).to.equal('7')
  })

  it('matches exact addresses and IPv4 ranges', () => {
    expect(ipAllowed('::ffff:196.201.214.55', ['196.201.214.0/24'])).to.equal(true)
    expect(ipAllowed('196.201.215.1', ['196.201.214.0/24'])).to.equal(false)
    expect(ipAllowed('127.0.0.1', ['10.0.0.1', '127.0.0.1'])).to.equal(true)
    expect(ipAllowed('::1', ['127.0.0.1'])).to.equal(false)
    expect(ipAllowed('1.2.3.4', ['0.0.0.0/0'])).to.equal(true)
    expect(ipAllowed('1.2.3.4', ['bad/99'])).to.equal(false)
  })

  it('guesses the mobile-money network from the gateway code or the number', () => {
    expect(payerNetworkOf('62001', '0201234567')).to.equal('MTN')
    expect(payerNetworkOf('Vodafone', '0241234567')).to.equal('TELECEL')
    expect(payerNetworkOf('', '233561234567')).to.equal('AIRTELTIGO')
    expect(payerNetworkOf(null, '0501234567')).to.equal('TELECEL')
    expect(payerNetworkOf(null, '0301234567')).to.equal(null)
  })

  it('formats sizes and money for a basic handset', () => {
    expect(formatSize(512)).to.equal('512MB')
    expect(formatSize(1024)).to.equal('1.0GB')
    expect(formatSize(1536)).to.equal('1.5GB')
    expect(ghs(450)).to.equal('GHS 4.50')
  })

  it('keeps every screen within 182 characters, notes included', () => {
    expect(fit('x'.repeat(500)).length + 4).to.equal(SCREEN_MAX)
    const lines = ['Title', ...Array.from({ length: 8 }, (_, i) => `${i + 1}. a menu line of some length`), '0 Back 00 Menu']
    const noted = screen(lines, 'Invalid choice.')
    expect(noted.length + 4).to.be.at.most(SCREEN_MAX)
    expect(noted.startsWith('Invalid choice.\n')).to.equal(true)
    expect(fit('Caf\u00e9 \u20b5 \ud83d\ude00 ok')).to.equal('Caf ok')
    for (const reason of ['not_whitelisted', 'not_agent', 'not_paid', 'not_approved', 'no_pin', 'locked'] as const) {
      expect(refusalText(reason, 12).length + 4).to.be.at.most(SCREEN_MAX)
    }
  })

  it('pages bundles so that each page fits with its title, paging links and a note', () => {
    const pkgs = Array.from({ length: 23 }, (_, i) => ({ id: i + 1, network: 'AIRTELTIGO', sizeMb: 1024 * (i + 1) * 10, pricePesewas: 999_999 }))
    const pages = paginate(pkgs, 'AirtelTigo bundles:')
    expect(pages.flat()).to.have.length(23)
    for (const p of pages) {
      expect(p.length).to.be.within(1, 7)
      const body = [
        'Invalid choice.',
        'AirtelTigo bundles: (9/9)',
        ...p.map((x, i) => `${i + 1}. ${formatSize(x.sizeMb)} ${ghs(x.pricePesewas)}`),
        '8 Prev 9 Next',
        '0 Back 00 Menu'
      ].join('\n')
      expect(body.length + 4).to.be.at.most(SCREEN_MAX)
    }
  })
})
