import { expect } from 'chai'
import { Client } from '../helpers/http.ts'
import { resetDb } from '../helpers/server.ts'

const browser = { 'User-Agent': 'Mozilla/5.0', Accept: 'text/html' }

/** The page's Vike entry and the linked chunk that holds react-dom (the shell), as sent. */
async function entryAndShell(path: string) {
  const client = new Client()
  const page = await client.get(path, browser)
  expect(page.status, path).to.equal(200)
  const entryUrl = /<script src="(\/assets\/entries\/entry-[^"]+\.js)"/.exec(page.text)?.[1]
  expect(entryUrl, `${path} loads Vike's entry`).to.be.a('string')
  const linked = [...new Set([...page.text.matchAll(/href="(\/assets\/chunks\/[^"]+\.js)"/g)].map((m) => m[1]!))]
  const texts = await Promise.all(linked.map(async (u) => (await client.get(u, { 'Accept-Encoding': 'identity' })).text))
  const shells = texts.filter((js) => js.includes('react.dev/errors'))
  expect(shells, `${path}: one linked chunk holds react-dom`).to.have.length(1)
  return { entry: (await client.get(entryUrl!, { 'Accept-Encoding': 'identity' })).text, shell: shells[0]! }
}

// What runs after the first paint, in tasks a phone can interleave with input (ADR 0044): the shell chunk is evaluated in
// three tasks and Vike's client starts in a task after its entry's. A browser test timing long tasks would be a timed
// assertion, so this reads the built files: each break is an `await` of a message on a channel at the chunk's top level.
describe('first load: the page is started in short tasks', function () {
  this.timeout(30_000)
  beforeEach(resetDb)

  it('evaluates the shell in three tasks: nothing before the first break, react-dom before the second, the renderer after it', async () => {
    for (const p of ['/data-services', '/login']) {
      const { shell } = await entryAndShell(p)
      // A statement of the chunk's top level; inside an async function an await is never of a bare call with no argument.
      const breaks = [...shell.matchAll(/;await (\w+)\(\);/g)]
      expect(breaks, `${p}: two top-level awaits in the shell`).to.have.length(2)
      const [first, second] = breaks as [RegExpExecArray, RegExpExecArray]
      expect(second[1]).to.equal(first[1])
      // The awaited function posts a message to itself: a new task, not a microtask.
      expect(shell).to.match(new RegExp(`\\b${first[1]}=\\(\\)=>new Promise\\(\\w+=>\\{let \\w+=new MessageChannel[;,]`))
      // Only imports and that definition come before the first break: the task that loaded the modules evaluates nothing.
      expect(shell.indexOf('react.dev/errors'), `${p}: React's code after the first break`).to.be.above(first.index)
      // react-dom's entry module (which calls React DevTools' check) runs between the breaks.
      const reactDomRuns = shell.indexOf('checkDCE')
      expect(reactDomRuns, `${p}: react-dom evaluated after the first break`).to.be.above(first.index)
      expect(reactDomRuns, `${p}: react-dom evaluated before the second break`).to.be.below(second.index)
      // The renderer (the client hook that marks the page hydrated) comes after the second.
      expect(shell.indexOf('dataset.hydrated'), `${p}: the renderer after the second break`).to.be.above(second.index)
    }
  })

  it("starts Vike's client in a task after the one that evaluates its entry", async () => {
    const { entry } = await entryAndShell('/data-services')
    // Vike's entry ends with `hydrate(); async function hydrate() {...}`: its start is now called from a message's task.
    const start = /\.then\((\w+)\);async function (\w+)\(\)\{/.exec(entry)
    expect(start, 'the start is called from a promise').to.not.equal(null)
    expect(start![2]).to.equal(start![1])
    expect(entry).to.include('new MessageChannel')
    expect(entry).to.not.match(new RegExp(`[;,]${start![1]}\\(\\);async function ${start![1]}\\(`))
  })
})
