import type { PageContextServer } from 'vike/types'

export interface AdminWalletData {
  agentId: number
}

// The agent comes from ?agentId=; the page loads its wallet through the admin API.
export function data(pageContext: PageContextServer): AdminWalletData {
  const id = Number(pageContext.urlParsed.search.agentId ?? 0)
  return { agentId: Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647 ? id : 0 }
}
