import { expect } from 'chai'
import { agentPriceOf, subAgentPriceOf, tierPriceOf } from '../../server/services/pricing/index.ts'

describe('pricing: the one price rule, pure parts', () => {
  const pkg = { id: 7, priceUserPesewas: 500, priceAgentPesewas: 450 }
  const tiers = [
    { id: 11, position: 0 },
    { id: 12, position: 1 },
    { id: 13, position: 2 },
    { id: 14, position: 3 }
  ]

  it('a tier without its own price pays the tier listed before it, then the agent price (else the public price)', () => {
    expect(agentPriceOf(pkg)).to.equal(450)
    expect(agentPriceOf({ priceUserPesewas: 500, priceAgentPesewas: null })).to.equal(500)
    const own = new Map([
      [12, 430],
      [14, 400]
    ])
    expect(tierPriceOf(null, tiers, own, pkg)).to.equal(450)
    expect(tierPriceOf(11, tiers, own, pkg)).to.equal(450)
    expect(tierPriceOf(12, tiers, own, pkg)).to.equal(430)
    expect(tierPriceOf(13, tiers, own, pkg)).to.equal(430)
    expect(tierPriceOf(14, tiers, own, pkg)).to.equal(400)
  })

  it("a sub-agent pays its parent's price for it, held between the parent's own price and the markup ceiling", () => {
    const s = { shopMaxMarkupType: 'PERCENT' as const, shopMaxMarkupValue: 20 }
    expect(subAgentPriceOf(420, 450, 400, s)).to.equal(420)
    expect(subAgentPriceOf(null, 450, 400, s)).to.equal(450)
    expect(subAgentPriceOf(null, 450, 460, s)).to.equal(460)
    expect(subAgentPriceOf(900, 450, 400, s)).to.equal(480)
  })
})
