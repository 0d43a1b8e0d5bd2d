import { redirect } from 'vike/abort'

// Unknown paths here go to /admin/overview (spec section 2, Route table).
export const guard = () => {
  throw redirect('/admin/overview')
}
