// First: react-dom is evaluated in a task of its own (react-dom-apart.ts).
import { hydrateRoot } from './react-dom-apart.ts'
import { startTransition, useEffect } from 'react'
import type { OnRenderClientAsync } from 'vike/types'
import { setCsrfToken } from './api.ts'
import { idleOrFirstTouch } from './idle-or-first-touch.ts'
import { registerServiceWorker } from './offline/register.ts'
import { Root } from './Root.tsx'
import { noteFieldsChangedBeforeHydration } from './typed-before-hydration.tsx'
import { hasLazyParts, loadLazyPartsTaskByTask } from './ui/lazy-hydrated.tsx'

/** Renders nothing; its effect runs at the root's first commit, which the page's "hydrated" mark waits for. */
function Committed({ done }: { done: () => void }) {
  useEffect(done, [])
  return null
}

/** The longest the parts' code waits for the browser to be idle after hydration (a busy phone may not be for long). */
const LAZY_PARTS_IDLE_TIMEOUT_MS = 2000

export const onRenderClient: OnRenderClientAsync = async (pageContext) => {
  const { Page } = pageContext
  setCsrfToken(pageContext.csrfToken)
  // Hydration starts in a task of its own: evaluating the page's code is the first load's longest task, and
  // what would follow in it (creating the root, asking for the lazy parts' code) only lengthens it (ADR 0044).
  await new Promise((resolve) => setTimeout(resolve, 0))
  // In a transition React hydrates the root in slices of ~5 ms, yielding to the browser between them, where
  // the default lane renders it in one task (React's first pass, mostly compiling its functions on first call,
  // was the page's longest task after evaluation). A tap before it is done still hydrates the root at once.
  const root = document.getElementById('root')!
  noteFieldsChangedBeforeHydration(root)
  const committed = new Promise<void>((resolve) => {
    startTransition(() => {
      hydrateRoot(
        root,
        <>
          <Root pageContext={pageContext}>{Page ? <Page /> : null}</Root>
          <Committed done={resolve} />
        </>
      )
    })
  })
  // The code of the parts hydrated later (My Orders, the orders saved on the device, a shop's checkers) is fetched and run
  // once the page has hydrated and the browser is idle, or at the visitor's first touch, key or focus if sooner: before,
  // it came while the page hydrated, and its tasks stretched the page's own. A part the visitor reaches first is asked for
  // by that touch; its HTML stays shown meanwhile, and what is typed into it is kept (lazy-hydrated.tsx).
  // The page answers every tap once that code is here: only then is it marked hydrated.
  const lazyParts = hasLazyParts() ? idleOrFirstTouch(committed, LAZY_PARTS_IDLE_TIMEOUT_MS).then(loadLazyPartsTaskByTask) : undefined
  await Promise.all([committed, lazyParts])
  document.documentElement.dataset.hydrated = 'true'
  // Only now: the worker's install (a thread started, the public pages fetched and saved) would compete with hydration.
  registerServiceWorker()
}
