import { hydrateRoot } from 'react-dom/client'
import type { OnRenderClientAsync } from 'vike/types'
import { setCsrfToken } from './api.ts'
import { registerServiceWorker } from './offline/register.ts'
import { Root } from './Root.tsx'
import { loadLazyParts } from './ui/lazy-hydrated.tsx'

export const onRenderClient: OnRenderClientAsync = async (pageContext) => {
  const { Page } = pageContext
  setCsrfToken(pageContext.csrfToken)
  // A task of its own for hydration: evaluating the page's code is the first load's longest task, and
  // hydrating the header in it as well pushed it further over the 50 ms a phone counts as blocking (ADR 0044).
  await new Promise((resolve) => setTimeout(resolve, 0))
  hydrateRoot(document.getElementById('root')!, <Root pageContext={pageContext}>{Page ? <Page /> : null}</Root>)
  registerServiceWorker()
  // The page answers every tap once the code of its parts hydrated on demand is here.
  await loadLazyParts()
  document.documentElement.dataset.hydrated = 'true'
}
