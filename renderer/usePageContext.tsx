import { createContext, useContext, type ReactNode } from 'react'
import type { PageContext } from 'vike/types'

const Ctx = createContext<PageContext>(undefined as unknown as PageContext)

export function PageContextProvider({ pageContext, children }: { pageContext: PageContext; children: ReactNode }) {
  return <Ctx.Provider value={pageContext}>{children}</Ctx.Provider>
}

export const usePageContext = () => useContext(Ctx)
