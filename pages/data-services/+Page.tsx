import { Placeholder } from '../../renderer/ui/Placeholder.tsx'

export default function Page() {
  return <Placeholder title="Buy Data" subtitle="Buy data bundles and look up your orders." />
}
