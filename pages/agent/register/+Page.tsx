import { Placeholder } from '../../../renderer/ui/Placeholder.tsx'

export default function Page() {
  return <Placeholder title="Become an Agent" subtitle="Register as an agent to get wholesale prices." />
}
