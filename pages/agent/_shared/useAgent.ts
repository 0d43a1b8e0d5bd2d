import { useCallback, useEffect, useState } from 'react'
import { api } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import type { AgentView } from '../../../server/services/agents/index.ts'
import { feePaidToast } from './onboarding.ts'

/** The agent's own profile, from the page data, refreshable from GET /api/agents/me. */
export function useAgent(initial: AgentView | null, opts: { everyMs?: number } = {}) {
  const [agent, setAgent] = useState<AgentView | null>(initial)
  const refresh = useCallback(async () => {
    try {
      setAgent(await api<AgentView>('/api/agents/me'))
    } catch {
      // Spec section 8: profile load failures are logged only; the last data stays.
      console.warn('agent profile reload failed')
    }
  }, [])
  useEffect(() => {
    if (!initial) void refresh()
    if (!opts.everyMs) return
    const timer = setInterval(() => void refresh(), opts.everyMs)
    const onVisible = () => {
      if (document.visibilityState === 'visible') void refresh()
    }
    document.addEventListener('visibilitychange', onVisible)
    return () => {
      clearInterval(timer)
      document.removeEventListener('visibilitychange', onVisible)
    }
  }, [initial, opts.everyMs, refresh])
  return { agent, setAgent, refresh }
}

/** "I Have Paid" for the registration fee: asks the server (which asks the gateway) and says what it found. */
export function useFeeCheck(onAgent: (a: AgentView) => void) {
  const toast = useToast()
  const [checking, setChecking] = useState(false)
  /** With an agent id it reads GET /api/agents/{id}/payment/status (Refresh Status); else POST /api/agents/payment/status. */
  const check = useCallback(
    async (agentId?: number) => {
      setChecking(true)
      try {
        type R = { paymentStatus: string | null; message: string | null; agent: AgentView }
        const r = agentId ? await api<R>(`/api/agents/${agentId}/payment/status`) : await api<R>('/api/agents/payment/status', { method: 'POST' })
        onAgent(r.agent)
        const st = String(r.paymentStatus ?? '').toUpperCase()
        if (st === 'SUCCESS') toast(feePaidToast(r.agent), 'success', 6000)
        else if (st === 'FAILED' || st === 'EXPIRED') toast('Payment failed. Please retry or contact support.', 'error')
        else toast('Payment is still pending. Please try again shortly.', 'info')
        return r
      } catch {
        toast('Failed to check payment status', 'error')
        return null
      } finally {
        setChecking(false)
      }
    },
    [onAgent, toast]
  )
  return { check, checking }
}
