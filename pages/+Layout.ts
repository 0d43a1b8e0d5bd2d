// The public shell for every page unless a folder names another (admin/+Layout.ts, agent/+Layout.ts; see `Layout` in renderer/+config.ts).
export { PublicLayout as default } from '../renderer/layouts/PublicLayout.tsx'
