import { Placeholder } from '../../../renderer/ui/Placeholder.tsx'

export default function Page() {
  return <Placeholder title="AFA Registrations" subtitle="" />
}
