import { createRequire } from 'node:module'
import type { Page } from 'puppeteer-core'

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js')

export interface Violation {
  id: string
  impact: string
  help: string
  nodes: { target: string[] }[]
}

/**
 * axe-core run inside the page (WCAG 2.0/2.1 A and AA rules), as a screen-reader user's checklist;
 * `extraRules` switches on best-practice rules (outside those tags) for the pages that keep them.
 */
export async function axe(page: Page, extraRules: string[] = []): Promise<Violation[]> {
  await page.addScriptTag({ path: AXE })
  return page.evaluate(async (extra) => {
    const r = await (window as unknown as { axe: { run(c: unknown, o: unknown): Promise<{ violations: Violation[] }> } }).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      rules: Object.fromEntries(extra.map((id) => [id, { enabled: true }]))
    })
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }))
  }, extraRules)
}

export const describeViolations = (vs: Violation[]) =>
  vs
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(', ')}`
    )
    .join('\n')
