import type { Config } from 'vike/types'

export default {
  redirects: {
    '/buy': '/data-services',
    '/my-orders': '/data-services',
    '/agent': '/agent/dashboard',
    '/admin': '/admin/overview'
  }
} satisfies Config
