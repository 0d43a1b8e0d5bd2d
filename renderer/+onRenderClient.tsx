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
  hydrateRoot(document.getElementById('root')!, <Root pageContext={pageContext}>{Page ? <Page /> : null}</Root>)
  registerServiceWorker()
  // The page answers every tap once the code of its parts hydrated on demand is here.
  await loadLazyParts()
  document.documentElement.dataset.hydrated = 'true'
}
