import type React from 'react'
import type { Actor } from '../server/services/context.ts'
import type { Services } from '../server/services/index.ts'
import type { PublicSettings, Settings } from '../server/services/settings/index.ts'

declare global {
  namespace Vike {
    interface PageContext {
      user: Actor | null
      settings: PublicSettings & Partial<Settings>
      csrfToken: string | null
      /** The payment simulator takes the payments: every page says so. */
      simulatedPayments?: boolean
      /** Server only: the domain layer, handed over by the request handler. */
      services?: Services
      title?: string
      Page: () => React.ReactNode
    }
    interface Config {
      title?: string
      description?: string
      styles?: 'public' | 'portal'
      Layout?: (props: { children: React.ReactNode }) => React.ReactNode
    }
  }
}

export {}
