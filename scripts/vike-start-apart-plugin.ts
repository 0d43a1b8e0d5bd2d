import type { Plugin } from 'vite'

const ENTRY = /[\\/]vike[\\/]dist[\\/]client[\\/]runtime-server-routing[\\/]entry\.js$/
const START = /^hydrate\(\);$/gm
// A message on a channel is a new task, and not held back in a background tab as a timer is.
const LATER =
  'new Promise((resolve) => { const c = new MessageChannel(); c.port1.onmessage = () => { c.port1.close(); resolve() }; c.port2.postMessage(null) }).then(hydrate);'

/**
 * Starts Vike's client (`hydrate()` in its server-routing entry) in a task after the one that evaluates the entry
 * (ADR 0044). The entry's evaluation (its runtime and the configs of every page) and the start's first steps (the
 * page's context read from the HTML, its config loaded, the page's modules asked for) were one task, the longest
 * left after the first paint on the buy and shop pages. The build fails when a Vike upgrade changes that line, so the
 * plugin is looked at again then.
 */
export function vikeStartApart(): Plugin {
  return {
    name: 'datahub-vike-start-apart',
    apply: 'build',
    transform(code, id) {
      if (!ENTRY.test(id)) return null
      let found = 0
      const out = code.replace(START, () => {
        found++
        return LATER
      })
      if (found !== 1) throw new Error(`vikeStartApart: expected one \`hydrate();\` in ${id}, found ${found}; check the plugin against this Vike`)
      return { code: out, map: null }
    }
  }
}
