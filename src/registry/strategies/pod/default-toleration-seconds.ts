// The DefaultTolerationSeconds admission plugin's two settings (kube-apiserver's --default-not-ready-toleration-seconds
// and --default-unreachable-toleration-seconds, 300 each): the Worker vars KUBEFLARE_DEFAULT_NOT_READY_TOLERATION_SECONDS
// and KUBEFLARE_DEFAULT_UNREACHABLE_TOLERATION_SECONDS, set for the isolate by each Durable Object when it starts
// (pods are admitted there) and checked by the Worker on each request, which refuses to serve with a value kube would
// not start with, as it does for a bad encryption key.
const NOT_READY_VAR = 'KUBEFLARE_DEFAULT_NOT_READY_TOLERATION_SECONDS'
const UNREACHABLE_VAR = 'KUBEFLARE_DEFAULT_UNREACHABLE_TOLERATION_SECONDS'
const KUBE_DEFAULT = 300

export interface DefaultTolerationSeconds {
  notReady: number
  unreachable: number
}

let current: DefaultTolerationSeconds = { notReady: KUBE_DEFAULT, unreachable: KUBE_DEFAULT }

/** The seconds the plugin gives the tolerations it adds. */
export const defaultTolerationSeconds = (): DefaultTolerationSeconds => current

/** A flag's value as kube's int64 flag reads it: a whole number (a sign allowed); null when it is not one. */
function seconds(text: string | undefined): number | null {
  if (text === undefined || text.trim() === '') return KUBE_DEFAULT
  const t = text.trim()
  if (!/^[+-]?\d+$/.test(t)) return null
  const n = Number(t)
  return Number.isSafeInteger(n) ? n : null
}

/**
 * Sets the plugin's seconds from the Worker's environment; answers what is wrong with a setting (the value then
 * stays as it was), or null.
 */
export function configureDefaultTolerationSeconds(env: object): string | null {
  const vars = env as Record<string, string | undefined>
  const notReady = seconds(vars[NOT_READY_VAR])
  const unreachable = seconds(vars[UNREACHABLE_VAR])
  const bad = (name: string, flag: string) =>
    `${name} must be a whole number of seconds (kube-apiserver's --${flag}), not ${JSON.stringify(vars[name])}`
  if (notReady === null) return bad(NOT_READY_VAR, 'default-not-ready-toleration-seconds')
  if (unreachable === null) return bad(UNREACHABLE_VAR, 'default-unreachable-toleration-seconds')
  current = { notReady, unreachable }
  return null
}
