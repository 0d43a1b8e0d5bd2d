/**
 * A promise kept in a later task of the browser's, so the code after an `await` of it runs in a new task. A message
 * on a channel, as React's scheduler yields: a timer would be held back up to a second in a tab in the background.
 */
export const nextTask = () =>
  new Promise<void>((resolve) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => {
      channel.port1.close()
      resolve()
    }
    channel.port2.postMessage(null)
  })
