import { toPesewas } from '../server/lib/money.ts'
import { actorOf } from './actions.ts'
import type { DialState, MenuEnv, Outcome } from './dial.ts'
import { NAV, ascii, cediToGhs, ghs, screen } from './text.ts'

/** The END screen carries the cards, so a dial buys no more than fit on it; the SMS carries them too. */
export const USSD_MAX_CARDS = 3
const MAX_PRODUCTS = 7

type ScreenDef = { render(env: MenuEnv, s: DialState, note?: string | null): Promise<string>; input(env: MenuEnv, s: DialState, v: string): Promise<Outcome> }

async function productsFor(env: MenuEnv, s: DialState) {
  return (await env.services.vouchers.products.listPublic(await actorOf(env, s))).filter((p) => p.inStock).slice(0, MAX_PRODUCTS)
}

async function chosen(env: MenuEnv, s: DialState) {
  return (await productsFor(env, s)).find((p) => p.id === s.checkerProductId) ?? null
}

/** An agent buys result-checker cards from the wallet: product, quantity, confirm; the END screen shows the cards. */
export const CHECKER_SCREENS: Record<'checkerProduct' | 'checkerQty' | 'checkerConfirm', ScreenDef> = {
  checkerProduct: {
    async render(env, s, note) {
      const list = await productsFor(env, s)
      if (!list.length) return screen(['No result checkers in stock now.', NAV], note)
      return screen(['Result checkers:', ...list.map((p, i) => `${i + 1}. ${ascii(p.name).slice(0, 24)} ${ghs(toPesewas(p.price))}`), NAV], note)
    },
    async input(env, s, v) {
      const pick = /^[1-7]$/.test(v) ? (await productsFor(env, s))[Number(v) - 1] : undefined
      if (!pick) return { note: 'Invalid choice.' }
      s.checkerProductId = pick.id
      return { go: 'checkerQty' }
    }
  },

  checkerQty: {
    async render(_env, _s, note) {
      return screen([`How many cards (1-${USSD_MAX_CARDS})?`, NAV], note)
    },
    async input(_env, s, v) {
      const n = Number(v)
      if (!/^\d$/.test(v) || n < 1 || n > USSD_MAX_CARDS) return { note: `Enter 1 to ${USSD_MAX_CARDS}.` }
      s.checkerQty = n
      return { go: 'checkerConfirm' }
    }
  },

  checkerConfirm: {
    async render(env, s, note) {
      const p = await chosen(env, s)
      if (!p) return screen(['That checker is no longer available.', NAV], note)
      const balance = await env.services.wallet.balancePesewas(s.agent.id)
      return screen(
        [
          `${ascii(p.name).slice(0, 30)} x${s.checkerQty}`,
          `Total: ${ghs(toPesewas(p.price) * (s.checkerQty ?? 1))}`,
          `1. Pay from wallet (${ghs(balance)})`,
          NAV
        ],
        note
      )
    },
    async input(env, s, v) {
      if (v !== '1') return { note: 'Invalid choice.' }
      // A gateway retry of this very hop must not buy twice.
      if (!(await env.services.ussd.sessions.claim(env.sessionId, 'checker'))) return { end: 'Your purchase is already being made.' }
      const ctx = { ...env.ctx, user: await actorOf(env, s) }
      try {
        const { transactionId } = await env.services.vouchers.buyFromWallet({ productId: s.checkerProductId, quantity: s.checkerQty, payFrom: 'wallet' }, ctx)
        const cards = await env.services.vouchers.cardsOf(transactionId)
        if (!cards.length) return { end: 'Sold out just now: nothing was charged in the end, the amount goes back to your wallet.' }
        const lines = cards.map((c) => `S/N ${c.serial} PIN ${c.pin}`)
        return { end: [...lines, `Ref ${transactionId.slice(-8)}. Also sent by SMS.`].join('\n') }
      } catch (err) {
        const status = (err as { status?: number }).status
        if (status === 402) return { end: 'Wallet balance too low. Top up in the agent portal and dial again.' }
        if (status && status < 500) return { end: ascii(cediToGhs(String((err as Error).message))) }
        throw err
      }
    }
  }
}
