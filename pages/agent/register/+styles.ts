// A public page under /agent: the public layout's stylesheet only (overrides pages/agent/+styles.ts).
export default 'public'
