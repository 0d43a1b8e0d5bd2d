import type { Transaction } from 'sequelize'
import type { Ctx } from '../context.ts'

/** The context every handler runs in: the publisher's, with the transaction that made the fact true. */
export type TxCtx = Ctx & { transaction: Transaction }

export type Handler<P> = (payload: P, ctx: TxCtx) => Promise<unknown>

/** For each event that has one, what a subscriber may narrow its interest to (absent: every event of that name). */
type ScopeOf<S, K> = K extends keyof S ? S[K] : never

/**
 * A typed in-process bus whose handlers run inside the publisher's transaction, one after the other
 * in the order they subscribed: a handler's throw rejects the publish, so the publisher's whole
 * transaction rolls back (ADR 0037). `M` maps each event name to its payload, `S` the names that
 * take a scope to that scope's type.
 */
export function createEventBus<M, S = Record<never, never>>() {
  type Sub = { handler: Handler<never>; scope: unknown }
  const subs = new Map<keyof M, Sub[]>()
  const of = (name: keyof M) => subs.get(name) ?? []

  return {
    /**
     * Runs `handler` in the transaction of every `name` published from now on (within `scope`, when
     * given). Returns what ends the subscription (capabilities keep theirs for the process's life).
     */
    on<K extends keyof M>(name: K, handler: Handler<M[K]>, ...scope: [ScopeOf<S, K>?]): () => void {
      const sub: Sub = { handler: handler as Handler<never>, scope: scope[0] }
      subs.set(name, [...of(name), sub])
      return () =>
        void subs.set(
          name,
          of(name).filter((s) => s !== sub)
        )
    },

    /**
     * Tells the subscribers, awaiting each in turn. An event that takes scopes needs `inScope`, the
     * publisher's test of a subscriber's scope against this fact (a subscriber without one is always told).
     */
    async publish<K extends keyof M>(
      name: K,
      payload: M[K],
      ctx: TxCtx,
      ...inScope: K extends keyof S ? [(scope: ScopeOf<S, K>) => boolean] : []
    ): Promise<void> {
      if (!ctx.transaction) throw new Error(`event ${String(name)} published outside a transaction`)
      const test = inScope[0] as ((scope: ScopeOf<S, K>) => boolean) | undefined
      for (const s of of(name)) {
        if (s.scope !== undefined && test && !test(s.scope as ScopeOf<S, K>)) continue
        await (s.handler as Handler<M[K]>)(payload, ctx)
      }
    },

    /**
     * The scopes of the subscribers of `name` ({} for one without a scope): a publisher may skip work
     * no subscriber could see (the delivery claim that is one statement when nobody listens).
     */
    scopes<K extends keyof M>(name: K): Partial<ScopeOf<S, K>>[] {
      return of(name).map((s) => (s.scope ?? {}) as Partial<ScopeOf<S, K>>)
    }
  }
}

export type EventBus<M, S = Record<never, never>> = ReturnType<typeof createEventBus<M, S>>
