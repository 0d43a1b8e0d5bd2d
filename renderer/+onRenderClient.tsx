// First: react-dom is evaluated in a task of its own (react-dom-apart.ts).
import { hydrateRoot } from './react-dom-apart.ts'
import { startTransition, useEffect } from 'react'
import type { OnRenderClientAsync } from 'vike/types'
import { setCsrfToken } from './api.ts'
import { registerServiceWorker } from './offline/register.ts'
import { Root } from './Root.tsx'
import { noteFieldsChangedBeforeHydration } from './typed-before-hydration.tsx'
import { loadLazyParts } from './ui/lazy-hydrated.tsx'

/** Renders nothing; its effect runs at the root's first commit, which the page's "hydrated" mark waits for. */
function Committed({ done }: { done: () => void }) {
  useEffect(done, [])
  return null
}

export const onRenderClient: OnRenderClientAsync = async (pageContext) => {
  const { Page } = pageContext
  setCsrfToken(pageContext.csrfToken)
  // Hydration starts in a task of its own: evaluating the page's code is the first load's longest task, and
  // what would follow in it (creating the root, asking for the lazy parts' code) only lengthens it (ADR 0044).
  await new Promise((resolve) => setTimeout(resolve, 0))
  // In a transition React hydrates the root in slices of ~5 ms, yielding to the browser between them, where
  // the default lane renders it in one task (React's first pass, mostly compiling its functions on first call,
  // was the page's longest task after evaluation). A tap before it is done still hydrates the root at once.
  // The scripts start after the first paint (ADR 0044), so the lazy parts' code can be here before React's first commit:
  // the page is marked hydrated only once both are.
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
  // The page answers every tap once the code of its parts hydrated on demand is here.
  await Promise.all([loadLazyParts(), committed])
  document.documentElement.dataset.hydrated = 'true'
  // Only now: the worker's install (a thread started, the public pages fetched and saved) would compete with hydration.
  registerServiceWorker()
}
