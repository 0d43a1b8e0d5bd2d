import type { Actor } from '../server/services/context.ts'
import type { MenuPackage } from './ports.ts'
import type { DialState, MenuEnv, Outcome } from './dial.ts'
import { NETWORK_LABELS, ascii, formatSize, ghs } from './text.ts'

// What a dial does beyond showing screens: sign in with the PIN, place and pay an order. Each is
// one call into the services (the rules are checked there), with the answer worded for a phone.

/**
 * Places the order of this dial and answers at once: the charge starts in a queued job (the telco
 * drops a hop that does not answer within seconds), so the payer is told a prompt is coming.
 */
export async function placeFromDial(env: MenuEnv, s: DialState, voucher: string | null): Promise<Outcome> {
  const p = await chosenPackage(env, s)
  if (!p || !s.recipient) return { note: 'That bundle is no longer available.' }
  // A gateway retry of this very hop must not place a second order.
  if (!(await env.services.ussd.sessions.claim(env.sessionId, 'order'))) return { end: 'Your order is already being placed. Wait for the payment prompt.' }
  const user = await actorOf(env, s)
  const payer = s.agent.phone
  const placed = await env.ports.placeOrder(
    { packageId: p.id, recipientNumber: s.recipient, payerPhone: payer, payerNetwork: s.payerNetwork, voucher },
    { ...env.ctx, user }
  )
  const ref = placed.transactionId.slice(-8)
  if (placed.paymentStatus === 'FAILED') {
    return {
      end: `Order ${ref} created, but the payment request failed${placed.message ? `: ${ascii(placed.message).slice(0, 60)}` : ''}. Please try again later.`
    }
  }
  return {
    end: `Order placed: ${formatSize(p.sizeMb)} ${NETWORK_LABELS[p.network]} to ${s.recipient}. A payment prompt for ${ghs(placed.amountPesewas)} is coming to ${payer}. Approve it to pay. Ref ${ref}`
  }
}

/** The signed-in agent as the order and payment services see them, read fresh (rules are checked again there). */
export async function actorOf(env: MenuEnv, state: DialState): Promise<Actor> {
  const actor = await env.services.auth.loadActor(state.agent.userId)
  if (!actor) throw new Error('agent user vanished')
  return actor
}

/** For showing prices only: the dial-in checks found this agent approved and paid. */
export function pricingActor(state: DialState): Actor {
  const a = state.agent
  return {
    id: a.userId,
    email: '',
    role: 'AGENT',
    name: a.name,
    phone: a.phone,
    agent: { id: a.id, name: a.name, phone: a.phone, approved: true, paymentStatus: 'SUCCESS' }
  }
}

export async function chosenPackage(env: MenuEnv, state: DialState): Promise<MenuPackage | null> {
  if (!state.network || !state.packageId) return null
  const list = await env.ports.listPackages(state.network, pricingActor(state), true)
  return list.find((p) => p.id === state.packageId) ?? null
}

/** The agent PIN (sign-in, and again to confirm a payout): null when right; failures count per agent and lock. */
export async function checkPin(env: MenuEnv, s: DialState, v: string): Promise<Outcome | null> {
  if (!/^\d{4}$/.test(v)) return { note: 'PIN must be 4 digits.' }
  const r = await env.services.ussd.verifyPin(s.agent.id, v, { ...env.ctx, user: null })
  if (r.ok) return null
  if (r.locked) return { end: `Wrong PIN. USSD is locked for ${r.minutesLeft} minutes after too many wrong PINs.` }
  return { note: `Wrong PIN. ${r.attemptsLeft} ${r.attemptsLeft === 1 ? 'try' : 'tries'} left.` }
}

/** Wallet purchase: paid at once, so the dial ends with the order confirmed. */
export async function payFromWallet(env: MenuEnv, s: DialState, p: MenuPackage): Promise<Outcome> {
  if ((await env.services.wallet.balancePesewas(s.agent.id)) < p.pricePesewas) return { note: 'Wallet balance too low.' }
  if (!(await env.services.ussd.sessions.claim(env.sessionId, 'order'))) return { end: 'Your order is already being placed.' }
  try {
    const placed = await env.ports.placeOrder(
      { packageId: p.id, recipientNumber: s.recipient!, payerPhone: s.agent.phone, payerNetwork: null, payFrom: 'wallet' },
      { ...env.ctx, user: await actorOf(env, s) }
    )
    const left = await env.services.wallet.balancePesewas(s.agent.id)
    return {
      end: `Order #${placed.orderId} confirmed: ${formatSize(p.sizeMb)} ${NETWORK_LABELS[p.network]} to ${s.recipient}, paid from wallet. Balance ${ghs(left)}. Ref ${placed.transactionId.slice(-8)}`
    }
  } catch (err) {
    // A race with another purchase took the balance first: nothing was written.
    if ((err as { status?: number }).status === 402) return { end: 'Wallet balance too low. Top up in the agent portal and dial again.' }
    throw err
  }
}
