// How long a streaming WebSocket (exec, attach, port-forward, a refused stream) stays open at least after its upgrade
// before the server closes it. wrangler dev's HTTPS proxy loses a close, with what came just before it, when the
// close follows the 101 too closely, so `npm start` asks for 100 ms; Cloudflare's edge and Miniflare without that
// proxy need none, and a fast `exec` then costs its command, not the delay.

const VAR = 'KUBEFLARE_STREAM_CLOSE_DELAY_MS'
const MAX_MS = 10_000
let warned: string | undefined

/** The Worker var in milliseconds: absent or empty is 0; what is not a whole number up to 10 s keeps the safe 100. */
export function streamCloseDelayMs(env: object): number {
  const raw = (env as Record<string, unknown>)[VAR]
  if (raw === undefined || raw === '') return 0
  const text = String(raw)
  if (/^\d{1,5}$/.test(text) && Number(text) <= MAX_MS) return Number(text)
  // Read at every close: say so once per bad value, not once per stream.
  if (warned !== text)
    console.warn(`${VAR}=${JSON.stringify(text)} is not a number of milliseconds from 0 to ${MAX_MS}; using 100`)
  warned = text
  return 100
}
