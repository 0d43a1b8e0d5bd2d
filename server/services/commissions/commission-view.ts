import { ghs } from './report-checks.ts'

/** A commission row (ROWS ... JOINS) as the reports and exports show it. */
export function commissionView(r: any) {
  const agent = r.agent_id ? { id: r.agent_id, name: r.agent_name, phone: r.agent_phone } : null
  return {
    id: r.id,
    createdAt: new Date(r.created_at).toISOString(),
    originalAmount: ghs(r.original_amount_pesewas),
    commissionAmount: ghs(r.commission_amount_pesewas),
    commissionType: r.commission_type,
    network: r.network,
    paymentStatus: r.payment_status,
    archived: !!r.archived,
    archivedAt: r.archived_at ? new Date(r.archived_at).toISOString() : null,
    archiveNotes: r.archive_notes ?? null,
    agentName: agent?.name ?? null,
    agentPhone: agent?.phone ?? null,
    order: {
      id: r.order_id,
      recipientNumber: r.recipient_number ?? null,
      dataSizeMb: r.data_size_mb ?? null,
      packageName: r.package_name ?? null,
      user: r.user_id || agent ? { id: r.user_id ?? null, email: r.user_email ?? null, agent } : null
    }
  }
}
export type CommissionView = ReturnType<typeof commissionView>
