// What the identity e2e files share: a kubeconfig per user (the harness's server and CA with another token, or none),
// kubectl and @kubernetes/client-node run with it, kube's 401/403 texts, and plain requests with any headers.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KubeConfig } from '@kubernetes/client-node'
import { parse } from 'yaml'
import { kubeconfig } from '../../scripts/kubeconfig.mjs'
import { KUBECONFIG, KUBEFLARE_URL, kubectl } from './helpers.mjs'

const harness = parse(readFileSync(KUBECONFIG, 'utf8'))
const SERVER = harness.clusters[0].cluster.server
const CA_DATA = harness.clusters[0].cluster['certificate-authority-data']

const dir = mkdtempSync(join(tmpdir(), 'kubeflare-identity-'))
process.on('exit', () => rmSync(dir, { recursive: true, force: true }))

/** A kubeconfig file for the harness's server with this token (none: an anonymous client). */
export function kubeconfigFor(name, token) {
  const file = join(dir, `${name}.yaml`)
  writeFileSync(file, kubeconfig({ server: SERVER, token, caData: CA_DATA }), { mode: 0o600 })
  return file
}

/** kubectl with that kubeconfig (the later --kubeconfig wins over the harness's). */
export const kubectlWith = (version, file, args, opts) => kubectl(version, ['--kubeconfig', file, ...args], opts)

/** A client-node KubeConfig for the harness's server with this token. */
export function clientConfig(token) {
  const kc = new KubeConfig()
  kc.loadFromString(kubeconfig({ server: SERVER, token, caData: CA_DATA }))
  return kc
}

/** kube's 401 body, byte for byte. */
export const UNAUTHORIZED =
  '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}\n'

/** kube's RBAC refusal text for a resource request. */
export function forbidden(user, verb, resource, namespace, group = '') {
  const where = namespace ? `in the namespace "${namespace}"` : 'at the cluster scope'
  const qualified = group ? `${resource}.${group}` : resource
  return `${qualified} is forbidden: User "${user}" cannot ${verb} resource "${resource}" in API group "${group}" ${where}`
}

/** kubectl's line for a 403. */
export const kubectlForbidden = (...args) => `Error from server (Forbidden): ${forbidden(...args)}\n`

/** A request to the harness's server with exactly these headers (no admin token added); answers the raw text too. */
export async function raw(path, headers = {}, method = 'GET') {
  const res = await fetch(`${KUBEFLARE_URL}${path}`, { method, headers, signal: AbortSignal.timeout(30_000) })
  const text = await res.text()
  let body
  try {
    body = JSON.parse(text)
  } catch {}
  return { status: res.status, headers: res.headers, text, body }
}

/** The claims of a JWT, unverified. */
export const jwtClaims = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'))
