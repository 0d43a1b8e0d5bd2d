// The admin portal's shell for every page in this folder (see `Layout` in renderer/+config.ts).
export { AdminLayout as default } from '../../renderer/layouts/AdminLayout.tsx'
