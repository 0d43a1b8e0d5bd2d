import type { ReactNode } from 'react'
import { usePageContext } from '../usePageContext.tsx'
import { isActiveAgent } from '../format.ts'
import { PortalLayout } from './PortalLayout.tsx'

const CRUMBS = {
  '/agent/dashboard': 'Dashboard',
  '/agent/orders': 'My Orders',
  '/agent/place-order': 'Place Order',
  '/agent/bulk': 'Bulk Order',
  '/agent/wallet': 'Wallet',
  // Shops
  '/agent/shop': 'My Shop',
  '/agent/payouts': 'Payouts',
  '/agent/sub-agents': 'Sub-agents',
  '/agent/packages': 'Packages',
  '/agent/profile': 'Profile',
  '/agent/payment': 'Payment'
}

export function AgentLayout({ children }: { children: ReactNode }) {
  const { user } = usePageContext()
  const agent = user?.agent
  const links = [
    { href: '/agent/dashboard', label: 'Dashboard' },
    { href: '/agent/orders', label: 'My Orders' },
    { href: '/agent/place-order', label: 'Place Order' },
    { href: '/agent/bulk', label: 'Bulk Order' },
    { href: '/agent/wallet', label: 'Wallet' },
    // Shops
    { href: '/agent/shop', label: 'My Shop' },
    // Payouts of shop earnings.
    { href: '/agent/payouts', label: 'Payouts' },
    // Dealer tiers: an agent's sub-agents, or a sub-agent's parent (ADR 0041).
    { href: '/agent/sub-agents', label: 'Sub-agents' },
    { href: '/agent/packages', label: 'Packages' },
    { href: '/agent/profile', label: 'Profile' }
  ]
  // The Payment item shows only while the agent is unapproved or the fee is not yet SUCCESS.
  if (!isActiveAgent(agent)) links.push({ href: '/agent/payment', label: 'Payment' })
  return (
    <PortalLayout title="Agent Portal" links={links} crumbs={CRUMBS}>
      {children}
    </PortalLayout>
  )
}
