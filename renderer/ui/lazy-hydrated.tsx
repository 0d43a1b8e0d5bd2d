import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react'
import { nextTask } from '../next-task.ts'
import { noteFieldsChangedInPartsToHydrate, TypedBeforeHydration } from '../typed-before-hydration.tsx'

const parts: (() => Promise<unknown>)[] = []
let want: () => void = () => undefined
/** Kept once the parts' code is wanted: until then a part found while hydrating keeps its server HTML and waits. */
const wanted = new Promise<void>((resolve) => (want = resolve))

/**
 * Loads the code of every `lazyHydrated` part the page's modules named. The server awaits it before each
 * render, so none is left pending: a pending part would be streamed after the page and revealed by an
 * inline script the CSP blocks. The browser calls it once the page has hydrated and the browser is idle, or
 * at the visitor's first touch (renderer/+onRenderClient.tsx): until then nothing of the parts is fetched or
 * run, so their code does not compete with the page's own hydration.
 */
export const loadLazyParts = () => {
  want()
  return Promise.all(parts.map((load) => load()))
}

/**
 * The browser's `loadLazyParts`: each part's code is asked for in a task of its own. An import adds a modulepreload for
 * each chunk it needs (1-7 ms a link on a slowed phone), so the three parts of a shop page asked for at once made one
 * task of 20-44 ms x 4. The parts are wanted only once the last is asked for: a part waiting while hydrating would
 * otherwise ask for its own code in the same task.
 */
export const loadLazyPartsTaskByTask = async () => {
  const loads: Promise<unknown>[] = []
  for (const [i, load] of parts.entries()) {
    if (i > 0) await nextTask()
    loads.push(load())
  }
  want()
  await Promise.all(loads)
}

/** Whether the page's parts have any code to load later (only then is it worth waiting for). */
export const hasLazyParts = () => parts.length > 0

interface Part<P> {
  /** Set once the code is here; only the server renders it directly. */
  loaded?: ComponentType<P>
  /**
   * Its code once the parts' code is wanted (at once after that): a part found while hydrating keeps its server HTML
   * until then, and one mounted by a tap fetches its code at once (the tap made it wanted).
   */
  OnDemand: ComponentType<P>
}

function LazyPart<P extends object>({ part, props }: { part: Part<P>; props: P }) {
  // Chosen once per mount: another component type later would remount the part and lose what the visitor
  // entered. A part first shown once its code is here (a tab opened by a tap) renders at once, in the same
  // commit as the tap, where the lazy one would show nothing until a later task.
  const [Shown] = useState(() => part.loaded ?? part.OnDemand)
  return (
    <Suspense fallback={null}>
      <Shown {...props} />
      {/* Its fields hydrate after the page's: what was typed in them before the code came is told to React here. */}
      <TypedBeforeHydration />
    </Suspense>
  )
}

/**
 * A part of a page whose HTML comes with the page but whose code does not (ADR 0044): the server renders
 * it in place, the browser shows that HTML at once and hydrates it when its chunk has come, fetched once the
 * page has hydrated and the browser is idle, or at the visitor's first touch (on every page that names it,
 * whether or not it shows it). For parts below the first screen, so the buy form hydrates first.
 */
export function lazyHydrated<P extends object>(load: () => Promise<ComponentType<P>>): (props: P) => ReactNode {
  let loading: Promise<ComponentType<P>> | undefined
  const fetchCode = () => {
    // A failed fetch may be tried again (the lazy component asks again on the next render).
    loading ??= load().then(
      (c) => (part.loaded = c),
      (e: unknown) => {
        loading = undefined
        throw e
      }
    )
    return loading
  }
  const part: Part<P> = {
    // What the visitor typed into the part's HTML while it waited is noted as its code comes, just before it hydrates.
    OnDemand: lazy(() =>
      wanted.then(fetchCode).then((c) => {
        noteFieldsChangedInPartsToHydrate(document)
        return { default: c }
      })
    )
  }
  parts.push(() => fetchCode().catch(() => undefined))
  return (props) => <LazyPart part={part} props={props} />
}
