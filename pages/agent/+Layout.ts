// The agent portal's shell for every page in this folder (see `Layout` in renderer/+config.ts).
export { AgentLayout as default } from '../../renderer/layouts/AgentLayout.tsx'
