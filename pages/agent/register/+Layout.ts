// A public page under /agent: the public shell (overrides agent/+Layout.ts), as its stylesheet (+styles.ts).
export { PublicLayout as default } from '../../../renderer/layouts/PublicLayout.tsx'
