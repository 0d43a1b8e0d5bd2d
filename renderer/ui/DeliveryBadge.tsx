// Delivery status as buyers, agents and admins see it: one label and colour per status.
const VIEW: Record<string, { label: string; admin: string; cls: string }> = {
  NOT_STARTED: { label: 'Awaiting delivery', admin: 'Not started', cls: 'is-light' },
  QUEUED: { label: 'Delivering', admin: 'Queued', cls: 'is-info is-light' },
  PROCESSING: { label: 'Delivering', admin: 'Processing', cls: 'is-info' },
  DELIVERED: { label: 'Delivered', admin: 'Delivered', cls: 'is-success' },
  MANUAL: { label: 'Delivered', admin: 'Delivered (manual)', cls: 'is-success is-light' },
  FAILED: { label: 'Delivery failed', admin: 'Failed', cls: 'is-danger' }
}

const deliveryLabel = (status: string | null | undefined, admin = false) => {
  const v = VIEW[String(status ?? 'NOT_STARTED')] ?? VIEW.NOT_STARTED!
  return admin ? v.admin : v.label
}

/** A paid order's delivery badge; unpaid orders have no delivery to speak of. */
export function DeliveryBadge({ status, paid = true, admin = false }: { status: string | null | undefined; paid?: boolean; admin?: boolean }) {
  if (!paid)
    return (
      <span className="tag is-light" data-delivery="NONE">
        {admin ? 'Not paid' : 'After payment'}
      </span>
    )
  const key = String(status ?? 'NOT_STARTED')
  const v = VIEW[key] ?? VIEW.NOT_STARTED!
  return (
    <span className={`tag ${v.cls}`} data-delivery={key}>
      {admin ? v.admin : v.label}
    </span>
  )
}
