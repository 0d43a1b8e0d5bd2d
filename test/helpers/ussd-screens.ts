import { expect } from 'chai'
import { app } from './server.ts'

// A USSD screen's length limit, and audit entries counted by action.
export const LIMIT = 182

export function expectFits(hop: { body: string }) {
  expect(hop.body.length, `screen too long (${hop.body.length}): ${hop.body}`).to.be.at.most(LIMIT)
}

export async function auditCount(action: string) {
  return app().db.models.AuditLog.count({ where: { action } })
}
