import { useState, type FormEvent } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { usePageContext } from '../../../renderer/usePageContext.tsx'
import { Area, Choice, Num, Switch, Text, type Values } from './fields.tsx'
import { Tabs } from '../../../renderer/ui/Tabs.tsx'

const TABS = [
  'General',
  'Payments',
  'Delivery',
  'Commission',
  'Messaging',
  'Notifications',
  'Schedule',
  // Shops
  'Shops',
  // Payouts of agents' shop earnings.
  'Payouts',
  // Customers ordering without a browser.
  'USSD',
  'WhatsApp'
] as const
type Tab = (typeof TABS)[number]
const NUMBERS = [
  'agentRegistrationFee',
  'afaRegistrationFee',
  'commissionPercentage',
  'commissionFixedAmount',
  'deliveryRetryLimit',
  'deliveryLowBalanceThreshold',
  'walletTopupMin',
  'walletTopupMax',
  // Shops
  'shopMaxMarkupValue',
  // Payouts
  'payoutMinimum',
  'payoutFee',
  'payoutApprovalAbove',
  // Bulk orders (ADR 0039)
  'bulkMaxLines'
]
const VENDORS = [
  { value: 'auto', label: 'Automatic (SkyTech GH when configured, else the simulator)' },
  { value: 'simulator', label: 'Simulator (no real delivery)' },
  { value: 'skytech', label: 'SkyTech GH' }
]

const toValues = (s: Record<string, unknown>): Values =>
  Object.fromEntries(Object.entries(s).map(([k, v]) => [k, typeof v === 'boolean' ? v : v === null || v === undefined ? '' : String(v)]))

/** The client-side check of spec section 5; the server checks again. */
function problem(v: Values): string | null {
  for (const k of NUMBERS) {
    const n = Number(v[k])
    if (String(v[k]).trim() === '' || !Number.isFinite(n) || n < 0) return 'Fees and commission amounts must be 0 or more'
  }
  const pct = Number(v.commissionPercentage)
  if (pct > 100) return 'Commission percentage must be between 0 and 100'
  const retries = Number(v.deliveryRetryLimit)
  if (!Number.isInteger(retries) || retries < 1 || retries > 20) return 'Retry limit must be a whole number from 1 to 20'
  if (!String(v.siteName).trim()) return 'Site name is required'
  return null
}

export default function Page() {
  const { settings } = usePageContext()
  const toast = useToast()
  const [tab, setTab] = useState<Tab>('General')
  const [values, setValues] = useState<Values>(() => toValues(settings as unknown as Record<string, unknown>))
  const [busy, setBusy] = useState(false)
  const set = (name: string, v: string | boolean) => setValues((x) => ({ ...x, [name]: v }))
  const f = { values, set }

  async function save(e: FormEvent) {
    e.preventDefault()
    const err = problem(values)
    if (err) {
      toast(err, 'error')
      return
    }
    const body: Record<string, unknown> = { ...values }
    for (const k of NUMBERS) body[k] = Number(values[k])
    setBusy(true)
    try {
      const saved = await api<Record<string, unknown>>('/api/settings', { method: 'PUT', body })
      const wasOpen = settings.platformOpen !== false
      setValues(toValues(saved))
      toast('Settings saved', 'success')
      // The maintenance banner and the layout read settings at render: show the new state.
      if ((saved.platformOpen !== false) !== wasOpen) setTimeout(() => location.reload(), 1200)
    } catch (error) {
      toast(error instanceof ApiError && error.message ? error.message : 'Failed to save settings', 'error')
    } finally {
      setBusy(false)
    }
  }

  const panel = (t: Tab) => ({ role: 'tabpanel', id: `panel-${t}`, 'aria-labelledby': `tab-${t}`, hidden: tab !== t })

  return (
    <section>
      <h1 className="title">Settings</h1>
      <p className="subtitle is-6">Branding, payments, commission, messages and the maintenance switch</p>
      <form className="box" onSubmit={save} noValidate>
        <Tabs className="is-scrollable mb-4" label="Settings sections" current={tab} onChange={setTab} tabs={TABS.map((t) => ({ id: t, label: t }))} />

        <div {...panel('General')}>
          <div className={`notification ${values.platformOpen ? 'is-success' : 'is-warning'} is-light`}>
            <Switch
              name="platformOpen"
              label="Platform open"
              {...f}
              help="Turn off for maintenance: visitors and agents see 'Platform Under Maintenance'; admins keep access."
            />
          </div>
          <Text name="siteName" label="Site Name" {...f} />
          <Text name="logoUrl" label="Logo URL" type="url" placeholder="https://..." {...f} />
          <Area name="welcomeMessage" label="Welcome Message" {...f} />
          <Area name="buySuccessMessage" label="Buy Success Message" rows={2} {...f} />
          <Area name="agentSuccessMessage" label="Agent Success Message" rows={2} {...f} />
          <Text name="whatsappNumber" label="WhatsApp Number" type="tel" placeholder="0241234567" {...f} help="Digits only." />
          <Text name="whatsappChannelLink" label="WhatsApp Channel Link" type="url" placeholder="https://whatsapp.com/channel/..." {...f} />
        </div>

        <div {...panel('USSD')}>
          <Switch name="ussdWhitelistEnabled" label="USSD whitelist enabled" {...f} help="When on, only whitelisted numbers can use the agent USSD menu." />
          <Switch
            name="ussdCustomerEnabled"
            label="Customer USSD menu"
            {...f}
            help="When on, callers who are not agents can buy data on the same code and pay by mobile money. Agents keep their PIN menu."
          />
          <Text name="ussdCustomerWelcome" label="Customer menu title" {...f} help="The first line of the customer's home screen (at most 40 characters)." />
          <Area name="ussdCustomerHelp" label="Customer help screen" rows={2} {...f} help="Shown for '4. Help' (at most 170 characters)." />
          <Area
            name="ussdCustomerPlaced"
            label="After the customer confirms"
            rows={2}
            {...f}
            help="Variables: {price}, {dataSize}, {network}, {recipientNumber} (at most 170 characters)."
          />
        </div>

        <div {...panel('WhatsApp')}>
          <Switch
            name="whatsappBotEnabled"
            label="WhatsApp ordering"
            {...f}
            help="When on, the WhatsApp bot sells data in the chat. The account's keys are set on the server (docs/whatsapp.md); without them the simulator at /simulator/whatsapp plays the customer."
          />
          <Area name="whatsappGreeting" label="Greeting" rows={2} {...f} help="The bot's first message. Variable: {siteName}." />
          <Area name="whatsappHandoff" label="Reply to 'Talk to a person'" rows={2} {...f} help="The chat then waits on the Messages page for an admin." />
          <Area
            name="whatsappShopGreeting"
            label="Greeting in an agent's shop"
            rows={2}
            {...f}
            help="When the first message names a shop. Variables: {shopName}, {siteName}."
          />
          <Area
            name="whatsappShopUnavailable"
            label="Shop not available"
            rows={2}
            {...f}
            help="The named shop takes no WhatsApp orders now. Variable: {siteName}."
          />
          <Area
            name="whatsappShopPrefill"
            label="Shop link text"
            rows={2}
            {...f}
            help="What a shop's WhatsApp link types for the customer. It must contain: shop {slug}."
          />
          <Area name="whatsappPayLink" label="Payment link message" rows={3} {...f} help="Variables: {link} (required), {price}, {ref}, {minutes}." />
        </div>

        <div {...panel('Payments')}>
          <Choice
            name="paymentGateway"
            label="Payment Gateway"
            {...f}
            options={[
              { value: 'ussd', label: 'Mobile money (USSD prompt)' },
              { value: 'paystack', label: 'Card redirect (Paystack)' }
            ]}
          />
          <Num name="agentRegistrationFee" label="Agent Registration Fee (GH₵)" min={0} step={0.01} {...f} />
          <Num
            name="afaRegistrationFee"
            label="AFA Registration Fee (GH₵)"
            min={0}
            step={0.01}
            {...f}
            help="The AFA fee banner shows only when the fee is above 0."
          />
          <Num name="walletTopupMin" label="Minimum Wallet Top-up (GH₵)" min={0.01} step={0.01} {...f} />
          <Num name="walletTopupMax" label="Maximum Wallet Top-up (GH₵)" min={0.01} step={0.01} {...f} help="Agents top up their wallet within these limits." />
          <Num name="bulkMaxLines" label="Bulk order lines" min={1} max={5000} step={1} {...f} help="The most numbers one bulk order may hold." />
          <Switch
            name="refundOnDeliveryFailure"
            label="Refund automatically when a delivery fails for good"
            {...f}
            help="The payer gets their money back and the agent's commission is reversed; listed on Payments needing attention."
          />
        </div>

        <div {...panel('Delivery')}>
          <Choice
            name="deliveryMode"
            label="Delivery mode"
            {...f}
            options={[
              { value: 'automatic', label: 'Automatic: send each paid order to the data vendor' },
              { value: 'manual', label: 'Manual: deliver from the CSV export' }
            ]}
            help="Manual works as before: paid orders wait for 'Export All Orders' or 'Mark delivered'."
          />
          <Choice name="deliveryVendorMtn" label="Vendor for MTN" {...f} options={VENDORS} />
          <Choice name="deliveryVendorTelecel" label="Vendor for Telecel" {...f} options={VENDORS} />
          <Choice name="deliveryVendorAirteltigo" label="Vendor for AirtelTigo" {...f} options={VENDORS} />
          <Num
            name="deliveryRetryLimit"
            label="Retry limit"
            min={1}
            max={20}
            step={1}
            {...f}
            help="Vendor attempts per order before it is marked failed; each wait doubles."
          />
          <Num
            name="deliveryLowBalanceThreshold"
            label="Low balance warning below (GH₵)"
            min={0}
            step={0.01}
            {...f}
            help="The overview warns when a vendor's balance falls below this."
          />
        </div>

        <div {...panel('Commission')}>
          <Switch name="commissionEnabled" label="Commission enabled" {...f} />
          <Choice
            name="commissionType"
            label="Commission Type"
            {...f}
            options={[
              { value: 'PERCENTAGE', label: 'Percentage' },
              { value: 'FIXED', label: 'Fixed amount' }
            ]}
          />
          <Num
            name="commissionPercentage"
            label="Commission Percentage (%)"
            min={0}
            max={100}
            step={0.1}
            {...f}
            help="0 to 100; used when the type is Percentage."
          />
          <Num name="commissionFixedAmount" label="Commission Fixed Amount (GH₵)" min={0} step={0.01} {...f} help="Used when the type is Fixed amount." />
        </div>

        <div {...panel('Messaging')}>
          <Switch name="visitorMessageEnabled" label="Show visitor message" {...f} help="Shown once per browser session on the home page." />
          <Text name="visitorMessageTitle" label="Visitor Message Title" {...f} />
          <Area name="visitorMessageContent" label="Visitor Message Content" rows={4} {...f} />
          <Choice
            name="visitorMessageType"
            label="Visitor Message Type"
            {...f}
            options={['INFO', 'SUCCESS', 'WARNING', 'ERROR'].map((v) => ({ value: v, label: v }))}
          />
        </div>

        <div {...panel('Notifications')}>
          <Area name="smsOrderCreatedUser" label="SMS on order created (customer)" {...f} help="Variables: {dataSize}, {network}, {recipientNumber}" />
          <Area name="smsOrderCreatedAgent" label="SMS on order created (agent)" {...f} help="Variables: {dataSize}, {network}, {recipientNumber}" />
          <Area
            name="smsDelivered"
            label="SMS on delivered"
            {...f}
            help="Variables: {dataSize}, {network}, {recipientNumber}. Sent to the agent for agent orders."
          />
          <Area name="smsDeliveryFailed" label="SMS on delivery failed" {...f} help="Variables: {dataSize}, {network}, {recipientNumber}" />
          <Area name="smsAgentApproved" label="SMS on agent approved" {...f} />
          <Area
            name="smsVoucherSold"
            label="SMS with result-checker cards"
            {...f}
            help="Variables: {product}, {cards} (serial and PIN of each card), {howToUse}"
          />
          <Text name="smsSenderId" label="SMS Sender ID" {...f} help="At most 11 letters or digits, as registered with the SMS provider." />
        </div>

        <div {...panel('Schedule')}>
          <Switch name="workingHoursEnabled" label="Show working hours banner" {...f} />
          <Area name="workingHoursText" label="Working Hours Text" rows={2} {...f} help="Scrolls across the top of public pages when enabled." />
        </div>

        {/* Shops */}
        <div {...panel('Shops')}>
          <Choice
            name="shopMaxMarkupType"
            label="Maximum shop markup type"
            {...f}
            options={[
              { value: 'PERCENT', label: 'Percent of the agent price' },
              { value: 'FIXED', label: 'Fixed amount in GH₵' }
            ]}
          />
          <Num
            name="shopMaxMarkupValue"
            label="Maximum shop markup"
            min={0}
            step={0.01}
            {...f}
            help="The most an agent's shop may charge above the agent price (never below it). Prices saved earlier above a new maximum sell at the maximum."
          />
        </div>

        {/* Payouts */}
        <div {...panel('Payouts')}>
          <Num
            name="payoutMinimum"
            label="Minimum payout (GH₵)"
            min={1}
            step={0.01}
            {...f}
            help="The smallest amount an agent can withdraw from shop earnings."
          />
          <Num
            name="payoutFee"
            label="Payout fee (GH₵)"
            min={0}
            step={0.01}
            {...f}
            help="Taken from the agent's earnings with each payout (0 for none); the agent receives the amount asked for."
          />
          <Num
            name="payoutApprovalAbove"
            label="Approve payouts above (GH₵)"
            min={0}
            step={0.01}
            {...f}
            help="Larger payouts wait on the Payouts page until an admin approves them; 0 means every payout waits."
          />
        </div>

        <div className="buttons mt-5">
          <button type="submit" className={`button is-primary${busy ? ' is-loading' : ''}`} disabled={busy}>
            Save Settings
          </button>
        </div>
      </form>
    </section>
  )
}
