/** The row shapes of the models (models/index.ts defines them on Sequelize), camelCase as the code reads them. */

export interface Timestamps {
  createdAt: Date
  updatedAt: Date
}

// Statuses are kept as strings: their word lists belong to the services above (payments/provider.ts), not here.
export interface UserRow extends Timestamps {
  id: number
  email: string
  phone: string | null
  name: string | null
  passwordHash?: string
  role: string
  sessionEpoch: number
  agent?: AgentRow | null
}

export interface AgentRow extends Timestamps {
  id: number
  userId: number
  name: string
  phone: string
  approved: boolean
  approvedAt: Date | null
  paymentStatus: string | null
  paymentTransactionId: string | null
  pinHash?: string | null
  pinFailedAttempts: number
  pinLockedUntil: Date | null
  /** Its dealer tier (null: the first tier) and, for a sub-agent, the agent who invited it (ADR 0041). */
  tierId?: number | null
  parentAgentId?: number | null
  inviteCode?: string | null
  suspendedByParentAt?: Date | null
  user?: UserRow
}

export interface SettingsRow {
  id: number
  data: Record<string, unknown>
  updatedAt: Date
}

export interface PackageRow extends Timestamps {
  id: number
  network: string
  name: string | null
  sizeMb: number
  priceUserPesewas: number
  priceAgentPesewas: number | null
  active: boolean
}

export interface OrderRow extends Timestamps {
  id: number
  userId: number | null
  agentId: number | null
  packageId: number | null
  packageName: string | null
  recipientNumber: string
  network: string
  dataSizeMb: number
  amountPesewas: number
  paymentStatus: string
  paymentTransactionId: string | null
  paymentPhoneNumber: string | null
  channel: string
  delivered: boolean
  deliveredAt: Date | null
  simulated: boolean
  deliveryStatus: string
  deliveryVendor: string | null
  deliveryReference: string | null
  deliveryAttempts: number
  deliveryError: string | null
  shopId: number | null
  shopAgentId: number | null
  shopPricePesewas: number | null
  shopAgentPricePesewas: number | null
  shopMarginPesewas: number | null
  user?: UserRow | null
  agent?: AgentRow | null
  package?: PackageRow | null
}

/** orders_view: an order with the CSV export applied. */
export interface OrderViewRow extends OrderRow {
  exported: boolean
  exportedAt: Date | null
}

export interface PaymentRow extends Timestamps {
  id: number
  transactionId: string
  purpose: string
  gateway: string
  method: string
  extTransactionId: string | null
  status: string
  amountPesewas: number
  payerPhone: string | null
  payerNetwork: string | null
  email: string | null
  message: string | null
  orderId: number | null
  afaRegistrationId: number | null
  agentId: number | null
  userId: number | null
  details: Record<string, any>
  settledAt: Date | null
  lastCheckedAt: Date | null
  simulated: boolean
  order?: OrderRow | null
  agent?: AgentRow | null
  afaRegistration?: AfaRegistrationRow | null
}

export interface AfaRegistrationRow extends Timestamps {
  id: number
  fullName: string
  ghCard: string
  phone: string
  email: string | null
  amountPesewas: number
  paymentStatus: string | null
  paymentTransactionId: string | null
  completed: boolean
  completedAt: Date | null
}

export interface CommissionRow {
  id: number
  orderId: number
  agentId: number | null
  network: string
  originalAmountPesewas: number
  commissionAmountPesewas: number
  commissionType: string
  paymentStatus: string
  archived: boolean
  archivedAt: Date | null
  archiveNotes: string | null
  createdAt: Date
  order?: OrderRow | null
  agent?: AgentRow | null
}

export interface AdminMessageRow extends Timestamps {
  id: number
  title: string
  message: string
  priority: string
  senderId: number | null
  recipients?: AdminMessageRecipientRow[]
}

export interface AdminMessageRecipientRow {
  id: number
  messageId: number
  userId: number
  isRead: boolean
  readAt: Date | null
  createdAt: Date
  message?: AdminMessageRow
  user?: UserRow
}

export interface AuditLogRow {
  /** BIGSERIAL: pg returns it as text. */
  id: string | number
  timestamp: Date
  userId: number | null
  action: string
  resource: string
  resourceId: string | null
  severity: string
  ipAddress: string | null
  details: Record<string, unknown>
  user?: UserRow | null
}

export interface UssdWhitelistRow {
  id: number
  phoneNumber: string
  isActive: boolean
  addedAt: Date
  updatedAt: Date
}

export interface UssdSessionRow {
  sessionId: string
  phone: string
  state: Record<string, unknown>
  updatedAt: Date
  expiresAt: Date
}

export interface AuthTokenRow {
  id: number
  userId: number
  kind: string
  tokenHash: string
  expiresAt: Date
  revokedAt: Date | null
  familyId: string | null
  rotatedAt: Date | null
  createdAt: Date
}

export interface SmsOutboxRow extends Timestamps {
  id: number
  toPhone: string
  message: string
  status: string
  provider: string | null
  providerMessageId: string | null
  attempts: number
  error: string | null
  sentAt: Date | null
  sensitive: boolean
}
