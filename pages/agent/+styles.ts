// The portal layout's stylesheet for every page in this folder (see `styles` in renderer/+config.ts).
import '../../renderer/styles/portal.scss'

export default 'portal'
