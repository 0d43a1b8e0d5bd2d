import { type RefObject, useEffect } from 'react'
import { digitsOnly } from '../_storefront/format.ts'

/**
 * Takes over what the buyer chose or typed in the buy form before its code had hydrated it. The page is shown before its
 * scripts arrive (renderer/client-start.ts), so on a slow phone a package can be picked and a number typed first. React
 * keeps an input's value as it finds it when hydrating, but the form's state starts empty, and the next render would put
 * the empty state back: the choice would be lost. Read once, after hydration, from the form's own inputs.
 */
export function useChosenBeforeHydration(form: RefObject<HTMLFormElement | null>, setPackageId: (id: number) => void, setRecipient: (digits: string) => void) {
  useEffect(() => {
    const chosen = form.current?.querySelector<HTMLInputElement>('input[name="package"]:checked')
    if (chosen) setPackageId(Number(chosen.value))
    const typed = form.current?.querySelector<HTMLInputElement>('#recipient')?.value
    if (typed) setRecipient(digitsOnly(typed))
  }, [form, setPackageId, setRecipient])
}
