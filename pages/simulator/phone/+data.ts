import type { PageContextServer } from 'vike/types'
import { requireSimulator } from '../_shared/guard-data.ts'

export const data = (pageContext: PageContextServer) => requireSimulator(pageContext)
