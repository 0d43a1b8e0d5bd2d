import crypto from 'node:crypto'

/** A PIN anyone would try first: one digit repeated, a run up or down, a repeated pair, a keypad column, a year. */
export function isGuessablePin(pin: string): boolean {
  if (!/^\d{4}$/.test(pin)) return true
  const d = [...pin].map(Number)
  // Stryker disable next-line ConditionalExpression,EqualityOperator,ArrowFunction: the repeated-pair rule below also catches 1111, so dropping this line changes no answer
  if (d.every((x) => x === d[0])) return true
  const steps = [d[1]! - d[0]!, d[2]! - d[1]!, d[3]! - d[2]!]
  if (steps.every((s) => s === 1) || steps.every((s) => s === -1)) return true
  if (pin.slice(0, 2) === pin.slice(2)) return true // 1212
  if (d[0] === d[1] && d[2] === d[3]) return true // 1122
  if (d[0] === d[3] && d[1] === d[2]) return true // 1221
  // Stryker disable next-line Regex: the PIN is four digits by here, so the anchors change no answer
  if (/^(19|20)\d\d$/.test(pin)) return true // birth years
  return ['2580', '0852', '1004', '6969', '1010', '0007', '4321', '1357', '2468', '1379', '7777'].includes(pin)
}

/** A uniformly random 4-digit PIN, drawn again until it is not a guessable one. */
export function randomPin(): string {
  // Bounded so that a guessability rule that refuses every PIN fails the request instead of hanging the process.
  // Stryker disable next-line EqualityOperator,UpdateOperator,ConditionalExpression: 1,000 guessable draws in a row (under 1 in 10^1000: 497 of the 10,000 PINs are guessable) do not happen, so the bound's exact value changes no answer
  for (let draw = 0; draw < 1000; draw++) {
    const pin = String(crypto.randomInt(0, 10_000)).padStart(4, '0')
    if (!isGuessablePin(pin)) return pin
  }
  throw new Error('No PIN drawn that is not guessable')
}
