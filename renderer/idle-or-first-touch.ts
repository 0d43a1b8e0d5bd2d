/** What a visitor does first to a part of the page: each one means code behind it may be wanted now. */
const FIRST_TOUCH = ['pointerdown', 'touchstart', 'keydown', 'focusin'] as const

/**
 * Kept once the browser is first idle after `after` (`requestIdleCallback`, at most `timeout` ms later, or a timer where
 * the browser has none) or at the visitor's first touch, key or focus on the page, whichever comes first. The touch is
 * listened for from the call, so one before `after` counts too.
 */
export function idleOrFirstTouch(after: Promise<unknown>, timeout: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      for (const type of FIRST_TOUCH) document.removeEventListener(type, done, true)
      resolve()
    }
    for (const type of FIRST_TOUCH) document.addEventListener(type, done, { capture: true, passive: true })
    void after.then(() => {
      if (typeof requestIdleCallback === 'function') requestIdleCallback(done, { timeout })
      else setTimeout(done, 0)
    })
  })
}
