import { Placeholder } from '../../../renderer/ui/Placeholder.tsx'

export default function Page() {
  return <Placeholder title="My Orders" subtitle="Track and manage your data orders" />
}
