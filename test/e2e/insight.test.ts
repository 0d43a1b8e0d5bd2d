import { expect } from 'chai'
import type { Page } from 'puppeteer-core'
import { QueryTypes } from 'sequelize'
import { parseCsv } from '../../server/lib/csv.ts'
import { bodyText, hydrated, login, newPage, url } from '../helpers/browser.ts'
import { waitText } from '../helpers/storefront.ts'
import { browserSuite } from '../helpers/browser-suite.ts'
import { downloads } from '../helpers/downloads.ts'
import { createAgent, createCommission } from '../helpers/factories.ts'
import { ADMIN, app } from '../helpers/server.ts'

const sql = <T extends object = any>(q: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(q, { replacements, type: QueryTypes.SELECT })

const waitToast = (page: Page, text: string) =>
  page.waitForFunction((t) => [...document.querySelectorAll('.toast-area .notification')].some((n) => n.textContent?.includes(t)), {}, text)
const settled = (page: Page) => page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'))

async function clickButton(page: Page, text: string, scope = 'body') {
  await page.waitForFunction(
    (s, t) => [...document.querySelectorAll(`${s} button`)].some((b) => (b as HTMLElement).innerText.trim() === t && !(b as HTMLButtonElement).disabled),
    {},
    scope,
    text
  )
  await page.evaluate(
    (s, t) => ([...document.querySelectorAll(`${s} button`)].find((b) => (b as HTMLElement).innerText.trim() === t) as HTMLElement).click(),
    scope,
    text
  )
}

describe('browser: back office insight (audit logs, commissions, analytics, agent performance)', function () {
  const browser = browserSuite(this, 180_000, 'each')

  it('an admin filters audit logs by action, opens Details, copies them and exports; archives two commissions; exports agent performance', async () => {
    const ama = await createAgent({ name: 'Ama Sales', phone: '0245550001' })
    const kofi = await createAgent({ name: 'Kofi Data', phone: '0245550002' })
    const c1 = await createCommission({
      agentId: ama.agent.id,
      userId: ama.user.id,
      network: 'MTN',
      originalAmountPesewas: 1000,
      commissionAmountPesewas: 100,
      createdAt: new Date('2026-03-02T10:00:00Z')
    })
    const c2 = await createCommission({
      agentId: ama.agent.id,
      userId: ama.user.id,
      network: 'TELECEL',
      originalAmountPesewas: 2000,
      commissionAmountPesewas: 200,
      createdAt: new Date('2026-03-03T10:00:00Z')
    })
    const c3 = await createCommission({
      agentId: kofi.agent.id,
      userId: kofi.user.id,
      network: 'MTN',
      originalAmountPesewas: 500,
      commissionAmountPesewas: 50,
      createdAt: new Date('2026-03-04T10:00:00Z')
    })
    const longValue = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140 Safari/537.36'
    const details = { changed: 'siteName', userAgent: longValue, count: 2 }
    await app().services.audit.record(
      { action: 'SETTINGS_UPDATED', resource: 'SETTINGS', resourceId: 'settings-record-1', severity: 'MEDIUM', details },
      { ip: '41.66.1.2' }
    )
    await app().services.audit.record(
      { action: 'AGENT_APPROVED', resource: 'AGENT', resourceId: String(ama.agent.id), severity: 'HIGH', details: { approved: true } },
      { ip: '41.66.1.3' }
    )

    const page = await newPage(browser, { width: 360 })
    await page.browserContext().overridePermissions(url(''), ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write'])
    await login(page, ADMIN.email, ADMIN.password)
    const dl = await downloads(page)

    // Audit logs: the table with every spec column, then filter by action.
    await page.goto(url('/admin/audit-logs'))
    await hydrated(page)
    let text = await bodyText(page)
    for (const t of [
      'Audit Logs',
      'User ID',
      'Action',
      'Resource',
      'Severity',
      'Start Date',
      'End Date',
      'Clear Filters',
      'Export CSV',
      'Export JSON',
      'Timestamp',
      'IP Address',
      'Details',
      'SETTINGS_UPDATED',
      'AGENT_APPROVED',
      'LOGIN',
      'Unknown',
      ADMIN.email
    ]) {
      expect(text, t).to.include(t)
    }
    expect(await page.$eval('#audit-limit', (e) => (e as HTMLSelectElement).value)).to.equal('50')
    expect(text).to.include('#settings', 'resource id shortened to 8 characters')
    expect(text).not.to.include('settings-record-1')
    await page.select('#audit-action', 'SETTINGS_UPDATED')
    await page.waitForFunction(() => document.querySelectorAll('tr[data-log-id]').length === 1 && !document.querySelector('[aria-busy="true"]'))
    text = await bodyText(page)
    expect(text).to.include('Showing 1 to 1 of 1 entries')

    // Details: a key/value list, the long value in monospace, copied as JSON.
    await clickButton(page, 'View', 'tr[data-log-id]')
    await page.waitForSelector('[data-testid="audit-details"]')
    const pairs = await page.$$eval('[data-testid="audit-details"] > div', (divs) =>
      divs.map((d) => [d.querySelector('dt')!.textContent, d.querySelector('dd')!.textContent, !!d.querySelector('.is-monospace')])
    )
    expect(pairs).to.have.deep.members([
      ['changed', 'siteName', false],
      ['userAgent', longValue, true],
      ['count', '2', false]
    ])
    await page.bringToFront()
    await clickButton(page, 'Copy as JSON', '.modal')
    await waitToast(page, 'Details copied to clipboard!')
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).to.deep.equal(details)
    await page.keyboard.press('Escape')
    await page.waitForFunction(() => !document.querySelector('.modal.is-active'))

    // Export follows the filter.
    await clickButton(page, 'Export CSV')
    await waitToast(page, 'Audit logs exported as CSV')
    const auditCsv = parseCsv(await dl.read(`audit_logs_${new Date().toISOString().slice(0, 10)}.csv`))
    expect(auditCsv.slice(1).map((r) => r[5])).to.deep.equal(['SETTINGS_UPDATED'])
    await clickButton(page, 'Clear Filters')
    await page.waitForFunction(() => document.querySelectorAll('tr[data-log-id]').length >= 3 && !document.querySelector('[aria-busy="true"]'))
    expect(await page.$eval('#audit-action', (e) => (e as HTMLSelectElement).value)).to.equal('')

    // Commissions: pick two, archive them with a note.
    await page.goto(url('/admin/commissions'))
    await hydrated(page)
    text = await bodyText(page)
    for (const t of ['Commissions', 'Total Commission', 'GH₵3.50', 'Commission History', 'Archive Selected', 'Archive All', 'Ama Sales', 'Kofi Data'])
      expect(text, t).to.include(t)
    await clickButton(page, 'Archive Selected')
    await waitToast(page, 'Please select commissions to archive')
    // The toast sits over the bottom of a phone screen: dismiss it before clicking rows.
    await page.click('.toast-area .delete')
    await page.click(`tr[data-commission-id="${c1.id}"] input[type=checkbox]`)
    await page.click(`tr[data-commission-id="${c2.id}"] input[type=checkbox]`)
    await clickButton(page, 'Archive Selected (2)')
    await page.waitForSelector('#archive-notes')
    expect(await page.$eval('#archive-notes', (e) => (e as HTMLTextAreaElement).value)).to.match(/^Archived on \d{2}\/\d{2}\/\d{4}$/)
    await page.$eval('#archive-notes', (e) => (e as HTMLTextAreaElement).select())
    await page.keyboard.press('Backspace')
    await page.type('#archive-notes', 'Paid out in March')
    await clickButton(page, 'Archive', '.modal')
    await waitToast(page, '2 commissions archived')
    await page.waitForFunction(() => document.querySelectorAll('tr[data-commission-id]').length === 1 && !document.querySelector('[aria-busy="true"]'))
    expect(await page.$(`tr[data-commission-id="${c3.id}"]`)).to.not.equal(null)
    await waitText(page, 'GH₵0.50')

    // They are in the archive, with the note; the cards reconcile.
    await page.goto(url('/admin/commission-analytics'))
    await hydrated(page)
    text = await bodyText(page)
    for (const t of [
      'Commission Analytics',
      'Current',
      'Archived',
      'Total',
      'Avg Commission',
      'Group By',
      'Top Agents',
      'Network Performance',
      'Archived Commissions',
      'Export'
    ])
      expect(text, t).to.include(t)
    const archivedRows = await page.$$eval('[data-testid="archived-table"] tr[data-commission-id]', (rows) =>
      rows.map((r) => [Number(r.getAttribute('data-commission-id')), r.textContent])
    )
    expect(archivedRows.map((r) => r[0]).sort()).to.deep.equal([c1.id, c2.id].sort())
    for (const [, rowText] of archivedRows) expect(rowText).to.include('Paid out in March')
    const cards = await page.$$eval('[data-stat]', (els) =>
      Object.fromEntries(els.map((e) => [e.getAttribute('data-stat'), e.querySelector('.stat-value')?.textContent]))
    )
    expect(cards).to.include({ current: 'GH₵0.50', archived: 'GH₵3.00', total: 'GH₵3.50' })
    await page.select('#analytics-group', 'agent')
    await waitText(page, 'Commission by Agent')
    await settled(page)
    const grouped = await bodyText(page)
    expect(grouped).to.include('Ama Sales')
    expect(grouped).to.include('Kofi Data')
    const [{ n }] = await sql<{ n: string }>('SELECT count(*) AS n FROM commissions WHERE archived AND archive_notes = :n', { n: 'Paid out in March' })
    expect(Number(n)).to.equal(2)

    // Agent performance: ranked with medals, statistics, export.
    await page.goto(url('/admin/agent-performance'))
    await hydrated(page)
    text = await bodyText(page)
    for (const t of [
      'Agent Performance',
      'Top N',
      'Top 3 Performers',
      'Leaderboard',
      'Statistics',
      'Highest Revenue',
      'Lowest Revenue',
      'Average Revenue',
      'Most Orders',
      'Total Revenue',
      'GH₵30.00',
      'GH₵5.00'
    ])
      expect(text, t).to.include(t)
    expect(await page.$$eval('[data-testid="leaderboard"] .medal', (m) => m.map((x) => x.getAttribute('aria-label')))).to.deep.equal([
      'Gold medal, rank 1',
      'Silver medal, rank 2'
    ])
    expect(await page.$eval('#performance-top', (e) => (e as HTMLSelectElement).value)).to.equal('10')
    await page.select('#performance-top', '20')
    await settled(page)
    await clickButton(page, 'Export CSV')
    await waitToast(page, 'Agent performance exported')
    const lb = parseCsv(await dl.read(`agent_performance_${new Date().toISOString().slice(0, 10)}.csv`))
    expect(lb.map((r) => [r[0], r[2], r[5]])).to.deep.equal([
      ['Rank', 'Agent', 'Revenue (GHS)'],
      ['1', 'Ama Sales', '30.00'],
      ['2', 'Kofi Data', '5.00']
    ])
    await dl.done()
  })
})
