import type { Sequelize } from 'sequelize'
import type { Logger } from '../../lib/logger.ts'
import type { AuditService } from '../audit/index.ts'
import type { CommissionsService } from '../commissions/index.ts'
import type { DeliveryService } from '../delivery/index.ts'
import type { Events } from '../events/index.ts'
import type { SettingsService } from '../settings/index.ts'
import type { SmsService } from '../sms/index.ts'
import type { Attention } from './attention.ts'
import type { PaymentRow } from './provider.ts'
import type { Refunds } from './refund.ts'

/** What settlement is given. */
export interface SettleDeps {
  sequelize: Sequelize
  refunds: Refunds
  attention: Attention
  settings: SettingsService
  audit: AuditService
  commissions: CommissionsService
  sms: SmsService
  delivery?: Pick<DeliveryService, 'onPaid' | 'onPaidMany'>
  log: Logger
  events: Pick<Events, 'publish'>
}

export interface SettleOutcome {
  /** True only for the one call that moved the payment out of PENDING/IN_PROGRESS. */
  settled: boolean
  row: PaymentRow | null
}
