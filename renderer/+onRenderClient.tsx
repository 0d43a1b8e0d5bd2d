import { startTransition } from 'react'
import { hydrateRoot } from 'react-dom/client'
import type { OnRenderClientAsync } from 'vike/types'
import { setCsrfToken } from './api.ts'
import { registerServiceWorker } from './offline/register.ts'
import { Root } from './Root.tsx'
import { loadLazyParts } from './ui/lazy-hydrated.tsx'

export const onRenderClient: OnRenderClientAsync = async (pageContext) => {
  const { Page } = pageContext
  setCsrfToken(pageContext.csrfToken)
  // Hydration starts in a task of its own: evaluating the page's code is the first load's longest task, and
  // what would follow in it (creating the root, asking for the lazy parts' code) only lengthens it (ADR 0044).
  await new Promise((resolve) => setTimeout(resolve, 0))
  // In a transition React hydrates the root in slices of ~5 ms, yielding to the browser between them, where
  // the default lane renders it in one task (React's first pass, mostly compiling its functions on first call,
  // was the page's longest task after evaluation). A tap before it is done still hydrates the root at once.
  startTransition(() => {
    hydrateRoot(document.getElementById('root')!, <Root pageContext={pageContext}>{Page ? <Page /> : null}</Root>)
  })
  registerServiceWorker()
  // The page answers every tap once the code of its parts hydrated on demand is here.
  await loadLazyParts()
  document.documentElement.dataset.hydrated = 'true'
}
