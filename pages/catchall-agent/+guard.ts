import { redirect } from 'vike/abort'

// Unknown paths here go to /agent/dashboard (spec section 2, Route table).
export const guard = () => {
  throw redirect('/agent/dashboard')
}
