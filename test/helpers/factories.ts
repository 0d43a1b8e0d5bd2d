import { hashSecret } from '../../server/lib/crypto.ts'
import { app } from './server.ts'

// Factories with overrides (after Outline's): each returns the created row as a plain object.
let seq = 0
const next = () => ++seq
type Over = Record<string, any>

export async function createUser(over: Over = {}) {
  const n = next()
  const password = over.password ?? 'password-123'
  const row = await app().db.models.User.create({
    email: over.email ?? `user${n}-${Date.now()}@test.local`,
    passwordHash: await hashSecret(password),
    role: over.role ?? 'PUBLIC',
    name: over.name ?? `User ${n}`,
    phone: over.phone ?? null
  })
  return { ...(row.get({ plain: true }) as Over), password } as Over & { id: number; email: string; role: string; password: string }
}

/** An agent user with its agent profile; approved and paid unless told otherwise. */
export async function createAgent(over: Over = {}) {
  const n = next()
  const phone = over.phone ?? `024${String(1000000 + n).slice(-7)}`
  const user = await createUser({ role: 'AGENT', phone, name: over.name ?? `Agent ${n}`, email: over.email, password: over.password })
  const agent = await app().db.models.Agent.create({
    userId: user.id,
    name: over.name ?? `Agent ${n}`,
    phone,
    approved: over.approved ?? true,
    paymentStatus: over.paymentStatus === undefined ? 'SUCCESS' : over.paymentStatus,
    paymentTransactionId: over.paymentTransactionId ?? null
  })
  return { user, agent: agent.get({ plain: true }) as Over, password: user.password as string }
}

export async function createPackage(over: Over = {}) {
  const row = await app().db.models.Package.create({
    network: over.network ?? 'MTN',
    name: over.name ?? null,
    sizeMb: over.sizeMb ?? 1024,
    priceUserPesewas: over.priceUserPesewas ?? 500,
    priceAgentPesewas: over.priceAgentPesewas === undefined ? 450 : over.priceAgentPesewas,
    active: over.active ?? true
  })
  return row.get({ plain: true }) as Over
}

export async function createOrder(over: Over = {}) {
  const n = next()
  const row = await app().db.models.Order.create({
    userId: over.userId ?? null,
    agentId: over.agentId ?? null,
    packageId: over.packageId ?? null,
    packageName: over.packageName ?? '1GB daily',
    recipientNumber: over.recipientNumber ?? '0241234567',
    network: over.network ?? 'MTN',
    dataSizeMb: over.dataSizeMb ?? 1024,
    amountPesewas: over.amountPesewas ?? 500,
    paymentStatus: over.paymentStatus ?? 'PENDING',
    paymentTransactionId: over.paymentTransactionId ?? `${Date.now()}${n}`,
    paymentPhoneNumber: over.paymentPhoneNumber ?? null,
    channel: over.channel ?? 'web',
    delivered: over.delivered ?? false,
    deliveryStatus: over.deliveryStatus ?? (over.delivered ? 'MANUAL' : 'NOT_STARTED'),
    createdAt: over.createdAt ?? new Date()
  })
  const order = row.get({ plain: true }) as Over
  // An export is a row in order_exports (ADR 0021); the order reads as exported through orders_view.
  if (over.exported) {
    await app().db.sequelize.query('INSERT INTO order_exports (order_id, exported_at) VALUES (:id, :at)', {
      replacements: { id: order.id, at: over.exportedAt ?? new Date() }
    })
    Object.assign(order, { exported: true, exportedAt: over.exportedAt ?? new Date() })
  }
  return order
}

/**
 * A commission for an order (creates a SUCCESS order when none is given). `createdAt` is set in SQL,
 * since Sequelize stamps its own time on create.
 */
export async function createCommission(over: Over = {}) {
  const order = over.orderId
    ? { id: over.orderId, agentId: over.agentId ?? null, network: over.network ?? 'MTN', amountPesewas: over.originalAmountPesewas ?? 500 }
    : await createOrder({
        agentId: over.agentId ?? null,
        userId: over.userId ?? null,
        network: over.network,
        amountPesewas: over.originalAmountPesewas ?? 500,
        paymentStatus: 'SUCCESS',
        createdAt: over.createdAt
      })
  const row = await app().db.models.Commission.create({
    orderId: order.id,
    agentId: over.agentId ?? order.agentId ?? null,
    network: over.network ?? order.network ?? 'MTN',
    originalAmountPesewas: over.originalAmountPesewas ?? order.amountPesewas ?? 500,
    commissionAmountPesewas: over.commissionAmountPesewas ?? Math.round((over.originalAmountPesewas ?? order.amountPesewas ?? 500) / 10),
    commissionType: over.commissionType ?? 'PERCENTAGE',
    paymentStatus: over.paymentStatus ?? 'PENDING',
    archived: over.archived ?? false,
    archivedAt: over.archived ? new Date() : null,
    archiveNotes: over.archiveNotes ?? null
  })
  const id = row.get('id') as number
  if (over.createdAt) {
    await app().db.sequelize.query('UPDATE commissions SET created_at = :at WHERE id = :id', { replacements: { at: over.createdAt, id } })
    await app().db.sequelize.query('UPDATE orders SET created_at = :at WHERE id = :id', { replacements: { at: over.createdAt, id: order.id } })
  }
  return { ...(row.get({ plain: true }) as Over), createdAt: over.createdAt ?? row.get('createdAt'), order } as Over
}

/** An AFA registration (paid unless told otherwise). */
export async function createAfaRegistration(over: Over = {}) {
  const n = next()
  const row = await app().db.models.AfaRegistration.create({
    fullName: over.fullName ?? `Applicant ${n}`,
    ghCard: over.ghCard ?? `GHA-${String(100000000 + n)}-1`,
    phone: over.phone ?? `020${String(1000000 + n).slice(-7)}`,
    email: over.email ?? `afa${n}@test.local`,
    amountPesewas: over.amountPesewas ?? 1000,
    paymentStatus: over.paymentStatus === undefined ? 'SUCCESS' : over.paymentStatus,
    paymentTransactionId: over.paymentTransactionId ?? `afa${Date.now()}${n}`,
    completed: over.completed ?? false,
    createdAt: over.createdAt ?? new Date()
  })
  return row.get({ plain: true }) as Over
}
