import { useEffect, useRef, type DependencyList } from 'react'

/**
 * Runs `reload` when `deps` change. With `serverRendered` it skips the first run: the server already
 * rendered the first page of data (+data), so loading it again after hydration would only cost a
 * request. Without it (no server data) the first run loads.
 */
export function useReloadEffect(reload: () => unknown, deps: DependencyList, serverRendered: boolean) {
  const first = useRef(serverRendered)
  useEffect(() => {
    if (first.current) {
      first.current = false
      return
    }
    void reload()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps)
}
