import { Placeholder } from '../../../renderer/ui/Placeholder.tsx'

export default function Page() {
  return <Placeholder title="Users" subtitle="Manage all users in the system" />
}
