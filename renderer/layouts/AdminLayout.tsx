import type { ReactNode } from 'react'
import { PortalLayout } from './PortalLayout.tsx'

export const ADMIN_LINKS = [
  { href: '/admin/overview', label: 'Overview' },
  { href: '/admin/orders', label: 'Orders' },
  { href: '/admin/bulk-orders', label: 'Bulk Orders' },
  { href: '/admin/payments', label: 'Payments needing attention' },
  // Payouts of agents' shop earnings.
  { href: '/admin/payouts', label: 'Payouts' },
  { href: '/admin/agents', label: 'Agents' },
  { href: '/admin/afa', label: 'AFA' },
  { href: '/admin/users', label: 'Users' },
  { href: '/admin/packages', label: 'Packages' },
  { href: '/admin/checkers', label: 'Result checkers' },
  { href: '/admin/commissions', label: 'Commissions' },
  { href: '/admin/ussd-whitelist', label: 'USSD Whitelist' },
  { href: '/admin/commission-analytics', label: 'Commission Analytics' },
  { href: '/admin/agent-performance', label: 'Agent Performance' },
  { href: '/admin/settings', label: 'Settings' },
  { href: '/admin/audit-logs', label: 'Audit Logs' },
  { href: '/admin/messaging', label: 'Send Message' },
  { href: '/admin/messaging/history', label: 'Message History' },
  { href: '/admin/sms', label: 'SMS Messages' },
  { href: '/admin/delivery-simulator', label: 'Delivery Simulator' },
  // Shops
  { href: '/admin/shops', label: 'Shops' },
  { href: '/admin/tiers', label: 'Tiers' },
  { href: '/ussd-simulator', label: 'USSD Simulator' }
]

const CRUMBS = {
  '/admin/overview': 'Overview',
  '/admin/orders': 'Orders',
  '/admin/bulk-orders': 'Bulk Orders',
  '/admin/agents': 'Agents',
  '/admin/wallets': 'Agent wallet',
  '/admin/afa': 'AFA',
  '/admin/packages': 'Packages',
  '/admin/checkers': 'Result checkers',
  '/admin/settings': 'Settings',
  // Shops, payouts
  '/admin/shops': 'Shops',
  '/admin/tiers': 'Tiers',
  '/admin/payouts': 'Payouts'
}

export function AdminLayout({ children }: { children: ReactNode }) {
  return (
    <PortalLayout title="Admin Panel" links={ADMIN_LINKS} crumbs={CRUMBS}>
      {children}
    </PortalLayout>
  )
}
