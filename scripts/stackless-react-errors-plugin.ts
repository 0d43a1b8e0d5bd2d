import type { Plugin } from 'vite'

const REACT_DOM = /[\\/]react-dom[\\/]cjs[\\/]react-dom-client\.production\.js$/
// The errors react-dom makes once, when its module is evaluated, to throw and recognise by identity later.
const AT_LOAD =
  /\b(HydrationMismatchException|SuspenseException|SuspenseyCommitException|SuspenseActionException|SelectiveHydrationException) = Error\(formatProdErrorMessage\((\d+)\)\)/g
const EXPECTED = 5

// A plain function in react-dom's own scope: an Error without a stack, `instanceof Error` and its message as before.
const HELPER = `function stacklessError(message) { var error = Object.create(Error.prototype); error.message = message; return error }\n`

/**
 * Makes react-dom's module-level errors without a stack (ADR 0044). Chromium records where each Error was
 * made, so the first one obliges V8 to parse again, for their positions, every function on the stack: all of
 * react-dom and the whole shared chunk, ~35 ms of CPU (140 ms on Lighthouse's throttled phone) in the
 * task that evaluates the page's code, the buy and shop pages' longest. React only compares them by identity.
 * The build fails when a React upgrade changes them, so the plugin is looked at again then.
 */
export function stacklessReactErrors(): Plugin {
  return {
    name: 'datahub-stackless-react-errors',
    apply: 'build',
    transform(code, id) {
      if (!REACT_DOM.test(id)) return null
      let found = 0
      const out = code.replace(AT_LOAD, (_, name: string, n: string) => {
        found++
        return `${name} = stacklessError(formatProdErrorMessage(${n}))`
      })
      if (found !== EXPECTED)
        throw new Error(`stacklessReactErrors: expected ${EXPECTED} module-level errors in ${id}, found ${found}; check the plugin against this React`)
      const strict = out.indexOf('"use strict";')
      const at = strict < 0 ? 0 : strict + '"use strict";'.length
      return { code: `${out.slice(0, at)}\n${HELPER}${out.slice(at)}`, map: null }
    }
  }
}
