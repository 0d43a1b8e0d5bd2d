export const DAY_MS = 86_400_000
// A day's transactions are all at the gateway by 01:10 UTC the next day (the daily tick's time).
const SETTLED_AFTER_MS = DAY_MS + 70 * 60_000

export const dayKey = (ms: number) => new Date(ms).toISOString().slice(0, 10)
export const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`)

/** The latest UTC day whose gateway list is complete at `now`. */
export const latestDueDay = (now: Date) => dayKey(now.getTime() - SETTLED_AFTER_MS)

/** True when `day` was over (and its late transactions in) at `now`: only then does it count as reconciled. */
export const isDayComplete = (day: string, now: Date) => now.getTime() >= dayStart(day) + SETTLED_AFTER_MS
