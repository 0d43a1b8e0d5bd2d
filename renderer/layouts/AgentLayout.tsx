import type { ReactNode } from 'react'
import { usePageContext } from '../usePageContext.tsx'
import { PortalLayout } from './PortalLayout.tsx'

const CRUMBS = {
  '/agent/dashboard': 'Dashboard',
  '/agent/orders': 'My Orders',
  '/agent/place-order': 'Place Order',
  '/agent/wallet': 'Wallet',
  // Shops
  '/agent/shop': 'My Shop',
  '/agent/payouts': 'Payouts',
  '/agent/packages': 'Packages',
  '/agent/profile': 'Profile',
  '/agent/payment': 'Payment',
}

export function AgentLayout({ children }: { children: ReactNode }) {
  const { user } = usePageContext()
  const agent = user?.agent
  const links = [
    { href: '/agent/dashboard', label: 'Dashboard' },
    { href: '/agent/orders', label: 'My Orders' },
    { href: '/agent/place-order', label: 'Place Order' },
    { href: '/agent/wallet', label: 'Wallet' },
    // Shops
    { href: '/agent/shop', label: 'My Shop' },
    // Payouts of shop earnings.
    { href: '/agent/payouts', label: 'Payouts' },
    { href: '/agent/packages', label: 'Packages' },
    { href: '/agent/profile', label: 'Profile' },
  ]
  // The Payment item shows only while the agent is unapproved or the fee is not yet SUCCESS.
  if (!agent?.approved || agent.paymentStatus !== 'SUCCESS') links.push({ href: '/agent/payment', label: 'Payment' })
  return <PortalLayout title="Agent Portal" links={links} crumbs={CRUMBS}>{children}</PortalLayout>
}
