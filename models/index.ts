import { DataTypes, Sequelize, type Model, type ModelAttributes, type ModelOptions, type ModelStatic } from 'sequelize'
import type {
  UserRow,
  AgentRow,
  SettingsRow,
  PackageRow,
  OrderRow,
  OrderViewRow,
  PaymentRow,
  AfaRegistrationRow,
  CommissionRow,
  AdminMessageRow,
  AdminMessageRecipientRow,
  AuditLogRow,
  UssdWhitelistRow,
  UssdSessionRow,
  AuthTokenRow,
  SmsOutboxRow
} from './rows.ts'

export type * from './rows.ts'

// Attributes are camelCase in code and snake_case in the tables (underscored).
type Row = Record<string, unknown>

/**
 * A model whose instances carry their row's attributes as typed properties. What a create() may
 * pass is any part of the row: the database fills ids, defaults and timestamps.
 */
type ModelOf<A extends object> = ModelStatic<Model<A, Partial<A>> & A>

export interface Models {
  User: ModelOf<UserRow>
  Agent: ModelOf<AgentRow>
  Settings: ModelOf<SettingsRow>
  Package: ModelOf<PackageRow>
  Order: ModelOf<OrderRow>
  /** Read-only: orders with the CSV export applied (orders_view, migration 190). Read delivery/export state here. */
  OrderView: ModelOf<OrderViewRow>
  Payment: ModelOf<PaymentRow>
  AfaRegistration: ModelOf<AfaRegistrationRow>
  AdminMessage: ModelOf<AdminMessageRow>
  AdminMessageRecipient: ModelOf<AdminMessageRecipientRow>
  AuditLog: ModelOf<AuditLogRow>
  Commission: ModelOf<CommissionRow>
  UssdWhitelist: ModelOf<UssdWhitelistRow>
  UssdSession: ModelOf<UssdSessionRow>
  AuthToken: ModelOf<AuthTokenRow>
  SmsOutbox: ModelOf<SmsOutboxRow>
}

const { INTEGER, BIGINT, TEXT, STRING, BOOLEAN, DATE, JSONB } = DataTypes
const STATUS = STRING

export function defineModels(sequelize: Sequelize): Models {
  const opts = (tableName: string, extra: Row = {}) => ({ tableName, underscored: true, ...extra })
  const id = { type: INTEGER, primaryKey: true, autoIncrement: true }
  // The row types name more than the columns listed (timestamps, associations), which define() cannot
  // check against its attribute list: the one place a model is given its row type.
  const define = <A extends object>(name: string, attributes: ModelAttributes, options: ModelOptions) =>
    sequelize.define(name, attributes, options) as unknown as ModelOf<A>

  const User = define<UserRow>(
    'User',
    {
      id,
      email: TEXT,
      phone: STRING(12),
      name: TEXT,
      passwordHash: TEXT,
      role: STRING,
      sessionEpoch: INTEGER
    },
    opts('users', { defaultScope: { attributes: { exclude: ['passwordHash'] } } })
  )

  const Agent = define<AgentRow>(
    'Agent',
    {
      id,
      userId: INTEGER,
      name: TEXT,
      phone: STRING(12),
      approved: BOOLEAN,
      approvedAt: DATE,
      paymentStatus: STATUS,
      paymentTransactionId: TEXT,
      pinHash: TEXT,
      pinFailedAttempts: INTEGER,
      pinLockedUntil: DATE,
      // Tiers and sub-agents (migration 280, ADR 0041).
      tierId: INTEGER,
      parentAgentId: INTEGER,
      inviteCode: TEXT,
      suspendedByParentAt: DATE
    },
    opts('agents', { defaultScope: { attributes: { exclude: ['pinHash'] } } })
  )

  const Settings = define<SettingsRow>('Settings', { id: { type: INTEGER, primaryKey: true }, data: JSONB }, opts('settings', { createdAt: false }))

  const Package = define<PackageRow>(
    'Package',
    {
      id,
      network: STRING,
      name: TEXT,
      sizeMb: INTEGER,
      priceUserPesewas: INTEGER,
      priceAgentPesewas: INTEGER,
      active: BOOLEAN
    },
    opts('packages')
  )

  const orderAttributes = {
    id,
    userId: INTEGER,
    agentId: INTEGER,
    packageId: INTEGER,
    packageName: TEXT,
    recipientNumber: STRING(12),
    network: STRING,
    dataSizeMb: INTEGER,
    amountPesewas: INTEGER,
    paymentStatus: STATUS,
    paymentTransactionId: TEXT,
    paymentPhoneNumber: STRING(12),
    channel: STRING,
    delivered: BOOLEAN,
    deliveredAt: DATE,
    simulated: BOOLEAN,
    deliveryStatus: STRING,
    deliveryVendor: STRING,
    deliveryReference: TEXT,
    deliveryAttempts: INTEGER,
    deliveryError: TEXT,
    // A shop order's sale (migration 201).
    shopId: INTEGER,
    shopAgentId: INTEGER,
    shopPricePesewas: INTEGER,
    shopAgentPricePesewas: INTEGER,
    shopMarginPesewas: INTEGER,
    // A sub-agent's order: its parent's own price and margin (migration 280).
    parentAgentId: INTEGER,
    parentPricePesewas: INTEGER,
    parentMarginPesewas: INTEGER
  }
  // The table as written. Whether an order was exported (and so delivered, MANUAL) lives in
  // order_exports: anything that shows or decides on delivery state reads OrderView.
  const Order = define<OrderRow>('Order', orderAttributes, opts('orders'))
  const OrderView = define<OrderViewRow>('OrderView', { ...orderAttributes, exported: BOOLEAN, exportedAt: DATE }, opts('orders_view'))

  const Payment = define<PaymentRow>(
    'Payment',
    {
      id,
      transactionId: TEXT,
      purpose: STRING,
      gateway: STRING,
      method: STRING,
      extTransactionId: TEXT,
      status: STATUS,
      amountPesewas: INTEGER,
      payerPhone: STRING(12),
      payerNetwork: STRING,
      email: TEXT,
      message: TEXT,
      orderId: INTEGER,
      afaRegistrationId: INTEGER,
      agentId: INTEGER,
      userId: INTEGER,
      details: JSONB,
      settledAt: DATE,
      lastCheckedAt: DATE,
      simulated: BOOLEAN
    },
    opts('payments')
  )

  const AfaRegistration = define<AfaRegistrationRow>(
    'AfaRegistration',
    {
      id,
      fullName: TEXT,
      ghCard: TEXT,
      phone: STRING(12),
      email: TEXT,
      amountPesewas: INTEGER,
      paymentStatus: STATUS,
      paymentTransactionId: TEXT,
      completed: BOOLEAN,
      completedAt: DATE
    },
    opts('afa_registrations')
  )

  const AdminMessage = define<AdminMessageRow>('AdminMessage', { id, title: TEXT, message: TEXT, priority: STRING, senderId: INTEGER }, opts('admin_messages'))
  const AdminMessageRecipient = define<AdminMessageRecipientRow>(
    'AdminMessageRecipient',
    {
      id,
      messageId: INTEGER,
      userId: INTEGER,
      isRead: BOOLEAN,
      readAt: DATE
    },
    opts('admin_message_recipients', { updatedAt: false })
  )

  const AuditLog = define<AuditLogRow>(
    'AuditLog',
    {
      id: { type: BIGINT, primaryKey: true, autoIncrement: true },
      timestamp: DATE,
      userId: INTEGER,
      action: STRING,
      resource: STRING,
      resourceId: TEXT,
      severity: STRING,
      ipAddress: TEXT,
      details: JSONB
    },
    opts('audit_logs', { timestamps: false })
  )

  const Commission = define<CommissionRow>(
    'Commission',
    {
      id,
      orderId: INTEGER,
      agentId: INTEGER,
      network: STRING,
      originalAmountPesewas: INTEGER,
      commissionAmountPesewas: INTEGER,
      commissionType: STRING,
      paymentStatus: STRING,
      archived: BOOLEAN,
      archivedAt: DATE,
      archiveNotes: TEXT
    },
    opts('commissions', { updatedAt: false })
  )

  const UssdWhitelist = define<UssdWhitelistRow>(
    'UssdWhitelist',
    {
      id,
      phoneNumber: STRING(12),
      isActive: BOOLEAN,
      addedAt: DATE
    },
    opts('ussd_whitelist', { createdAt: 'addedAt' })
  )

  const UssdSession = define<UssdSessionRow>(
    'UssdSession',
    {
      sessionId: { type: TEXT, primaryKey: true },
      phone: STRING(15),
      state: JSONB,
      expiresAt: DATE
    },
    opts('ussd_sessions', { createdAt: false })
  )

  const AuthToken = define<AuthTokenRow>(
    'AuthToken',
    {
      id,
      userId: INTEGER,
      kind: STRING,
      tokenHash: TEXT,
      expiresAt: DATE,
      revokedAt: DATE,
      familyId: DataTypes.UUID,
      rotatedAt: DATE
    },
    opts('auth_tokens', { updatedAt: false })
  )

  const SmsOutbox = define<SmsOutboxRow>(
    'SmsOutbox',
    {
      id,
      toPhone: STRING(15),
      message: TEXT,
      status: STRING,
      provider: STRING,
      providerMessageId: TEXT,
      attempts: INTEGER,
      error: TEXT,
      sentAt: DATE,
      sensitive: BOOLEAN
    },
    opts('sms_outbox')
  )

  User.hasOne(Agent, { as: 'agent', foreignKey: 'userId' })
  Agent.belongsTo(User, { as: 'user', foreignKey: 'userId' })
  Order.belongsTo(User, { as: 'user', foreignKey: 'userId' })
  Order.belongsTo(Agent, { as: 'agent', foreignKey: 'agentId' })
  Order.belongsTo(Package, { as: 'package', foreignKey: 'packageId' })
  Payment.belongsTo(Order, { as: 'order', foreignKey: 'orderId' })
  Payment.belongsTo(Agent, { as: 'agent', foreignKey: 'agentId' })
  Payment.belongsTo(AfaRegistration, { as: 'afaRegistration', foreignKey: 'afaRegistrationId' })
  AdminMessage.hasMany(AdminMessageRecipient, { as: 'recipients', foreignKey: 'messageId' })
  AdminMessageRecipient.belongsTo(AdminMessage, { as: 'message', foreignKey: 'messageId' })
  AdminMessageRecipient.belongsTo(User, { as: 'user', foreignKey: 'userId' })
  AuditLog.belongsTo(User, { as: 'user', foreignKey: 'userId' })
  Commission.belongsTo(Order, { as: 'order', foreignKey: 'orderId' })
  Commission.belongsTo(Agent, { as: 'agent', foreignKey: 'agentId' })

  return {
    User,
    Agent,
    Settings,
    Package,
    Order,
    OrderView,
    Payment,
    AfaRegistration,
    AdminMessage,
    AdminMessageRecipient,
    AuditLog,
    Commission,
    UssdWhitelist,
    UssdSession,
    AuthToken,
    SmsOutbox
  }
}
