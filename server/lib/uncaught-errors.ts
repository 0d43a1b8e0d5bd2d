// Imported first by main.ts, before anything that imports Vike: Vike adds listeners for both events
// on import that only console.error the error and keep the process serving. What is listening when
// this module is evaluated (a preloaded agent's) is left alone; what the app's imports add is taken off.
const EVENTS = ['uncaughtException', 'unhandledRejection'] as const
type UncaughtEvent = (typeof EVENTS)[number]

type Listener = (...args: unknown[]) => void
// Each event's own overload of `listeners` takes one name, not the union of both.
const listenersOf = (e: UncaughtEvent) => process.listeners(e as 'uncaughtException') as Listener[]

const before = new Map(EVENTS.map((e) => [e, new Set(listenersOf(e))]))
const ours = new Set<Listener>()

/**
 * The command line's process only (tests and benches boot in their own process and keep its
 * behaviour): takes off the listeners the app's imports added for uncaught exceptions and
 * unhandled rejections, and hands both to `onError`. Called again, it takes off any added since.
 */
export function takeOverUncaughtErrors(onError: (err: unknown, kind: UncaughtEvent) => void): void {
  for (const e of EVENTS) {
    for (const l of listenersOf(e)) if (!before.get(e)!.has(l) && !ours.has(l)) process.removeListener(e, l)
  }
  if (ours.size) return
  const onException = (err: Error) => onError(err, 'uncaughtException')
  const onRejection = (reason: unknown) => onError(reason, 'unhandledRejection')
  ours.add(onException as Listener).add(onRejection)
  process.on('uncaughtException', onException)
  process.on('unhandledRejection', onRejection)
}
