import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Page } from 'puppeteer-core'

/**
 * Lets the page's downloads land in a fresh folder. `read` waits for Chromium to report the
 * download completed, not for the file to exist: Chromium reserves the final name with an
 * empty file before it writes the bytes, so a file that exists may still be empty.
 */
export async function downloads(page: Page, timeoutMs = 15_000) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'datahub-dl-'))
  const cdp = await page.createCDPSession()
  const names = new Map<string, string>()
  const completed = new Set<string>()
  const waiters = new Set<() => void>()
  cdp.on('Browser.downloadWillBegin', (e) => names.set(e.guid, e.suggestedFilename))
  cdp.on('Browser.downloadProgress', (e) => {
    if (e.state !== 'completed') return
    const name = names.get(e.guid)
    if (name) completed.add(name)
    for (const wake of waiters) wake()
  })
  await cdp.send('Browser.setDownloadBehavior', {
    behavior: 'allow',
    downloadPath: dir,
    browserContextId: (page.browserContext() as unknown as { id?: string }).id,
    eventsEnabled: true
  })
  return {
    async read(name: string): Promise<string> {
      const deadline = Date.now() + timeoutMs
      while (!completed.has(name)) {
        const left = deadline - Date.now()
        if (left <= 0) throw new Error(`download ${name} not completed; began: ${[...names.values()].join(', ') || 'none'}`)
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake)
            clearTimeout(timer)
            resolve()
          }
          const timer = setTimeout(wake, left)
          waiters.add(wake)
        })
      }
      return fs.readFileSync(path.join(dir, name), 'utf8')
    },
    done: async () => {
      await cdp.detach().catch(() => {})
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }
}
