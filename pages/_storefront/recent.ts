/** The last 5 recipient numbers, newest first, no duplicates (spec sections 3 and 9). */
export const RECENT_KEY = 'rdh_recent_recipients'
export const RECENT_MAX = 5

export function loadRecent(): string[] {
  try {
    const v = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]')
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && /^\d{1,12}$/.test(x)).slice(0, RECENT_MAX) : []
  } catch {
    return []
  }
}

export function addRecent(number: string): string[] {
  const list = [number, ...loadRecent().filter((n) => n !== number)].slice(0, RECENT_MAX)
  try {
    localStorage.setItem(RECENT_KEY, JSON.stringify(list))
  } catch {
    /* private mode: kept for this page only */
  }
  return list
}
