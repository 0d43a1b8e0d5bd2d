import type { PageContextServer } from 'vike/types'
import { loadAgentBase } from '../_shared/agent-data.ts'

export const data = (pageContext: PageContextServer) => loadAgentBase(pageContext)
