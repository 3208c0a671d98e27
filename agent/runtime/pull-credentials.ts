// The credentials a pull may use, as the kubelet finds them: the pod's imagePullSecrets of type
// kubernetes.io/dockerconfigjson and kubernetes.io/dockercfg made into a keyring (pkg/credentialprovider/keyring.go:
// an entry per registry key, `https://` and a `/v1/` or `/v2/` prefix dropped, more specific keys first), looked up
// by the image's repository (its normalized name, docker.io/library/... for Docker Hub) with host globs (`*.example.com`),
// ports and path prefixes; and the client configuration one credential is handed to the CLI in (config.json, 0600).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Obj } from '../obj.ts'

/** One credential, as kube's AuthConfig holds it from a docker config entry. */
export interface PullCredential {
  username: string
  password: string
  email?: string
}

/** A pull secret that cannot be read as a docker config (the kubelet's pull fails with the decoding error). */
export class PullSecretError extends Error {}

const DEFAULT_REGISTRY_HOST = 'index.docker.io'

/** The repository an image pulls from, as reference.ParseNormalizedNamed names it (no tag, no digest). */
export function repositoryOf(image: string): string {
  let name = image.split('@')[0]!
  const slash = name.lastIndexOf('/')
  const colon = name.lastIndexOf(':')
  if (colon > slash) name = name.slice(0, colon)
  const first = name.indexOf('/')
  const head = first < 0 ? '' : name.slice(0, first)
  let domain = 'docker.io'
  let rest = name
  if (first >= 0 && (/[.:]/.test(head) || head === 'localhost' || head !== head.toLowerCase())) {
    domain = head
    rest = name.slice(first + 1)
  }
  if (domain === 'index.docker.io') domain = 'docker.io'
  if (domain === 'docker.io' && !rest.includes('/')) rest = `library/${rest}`
  return `${domain}/${rest}`
}

/** The registry host of an image (docker.io for Docker Hub). */
export const registryOf = (image: string) => repositoryOf(image).split('/')[0]!

/** A docker config entry's credential (DockerConfigEntry.UnmarshalJSON: `auth` is base64 of user:password). */
function entryCredential(entry: Obj): PullCredential {
  const cred: PullCredential = { username: String(entry?.username ?? ''), password: String(entry?.password ?? '') }
  if (entry?.email) cred.email = String(entry.email)
  const auth = typeof entry?.auth === 'string' ? entry.auth : ''
  if (!auth) return cred
  const decoded = Buffer.from(auth.trim(), 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) throw new PullSecretError('unable to parse auth field, must be formatted as base64(username:password)')
  return { ...cred, username: decoded.slice(0, colon), password: decoded.slice(colon + 1) }
}

/** The keyring key of a config entry's location (keyring.go's Add). */
function keyOf(location: string): string {
  const url = /^https?:\/\//.test(location) ? location : `https://${location}`
  const rest = url.replace(/^https?:\/\//, '').replace(/[?#].*$/, '')
  const slash = rest.indexOf('/')
  const host = slash < 0 ? rest : rest.slice(0, slash)
  let path = slash < 0 ? '' : rest.slice(slash)
  if (path.startsWith('/v2/') || path.startsWith('/v1/')) path = path.slice(3)
  return path.length > 0 && path !== '/' ? host + path : host
}

/** The docker config (registry location to entry) a pull secret holds; null for a Secret of another type. */
function dockerConfigOf(secret: Obj): Obj | null {
  const type = secret?.type
  const key = type === 'kubernetes.io/dockerconfigjson' ? '.dockerconfigjson' : '.dockercfg'
  if (type !== 'kubernetes.io/dockerconfigjson' && type !== 'kubernetes.io/dockercfg') return null
  const data = secret.data?.[key]
  if (typeof data !== 'string' || data === '') return null
  let parsed: Obj
  const text = Buffer.from(data, 'base64').toString('utf8')
  try {
    parsed = JSON.parse(text)
  } catch (e) {
    throw new PullSecretError(jsonError(e as Error, text))
  }
  const entries = type === 'kubernetes.io/dockerconfigjson' ? parsed?.auths : parsed
  return entries && typeof entries === 'object' ? entries : {}
}

/**
 * A decoding error worded without the text around it: the message lands in the pod's status and events (ErrImagePull),
 * which readers of the pod see, and V8's quotes the secret's bytes near the error ("hunter2"... is not valid JSON);
 * Go's encoding/json, which the kubelet's is, names one character at most.
 */
function jsonError(e: Error, text: string): string {
  const at = /at position (\d+)/.exec(e.message)
  if (/^Unexpected end of JSON input/.test(e.message) || (at && Number(at[1]) >= text.length))
    return 'unexpected end of JSON input'
  const token = /^Unexpected token '(.)'/su.exec(e.message)
  if (token) return `invalid character '${token[1]}' looking for beginning of value`
  // The other messages name a position, not the text ("Expected ',' or '}' after property value in JSON at position 9").
  return e.message.replace(/"(?:[^"\\]|\\.)*"(?:\.\.\.)?/g, '...')
}

/** Go's filepath.Match for one host label (no separators in a label): `*`, `?`, `[...]` and `\` escapes. */
function globMatch(glob: string, label: string): boolean {
  let re = ''
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!
    if (c === '*') re += '.*'
    else if (c === '?') re += '.'
    else if (c === '\\' && i + 1 < glob.length) re += `\\${glob[++i]}`
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1)
      if (end < 0) return false
      re += `[${glob
        .slice(i + 1, end)
        .replace(/^\^/, '^')
        .replace(/^!/, '^')
        .replace(/\\/g, '\\\\')}]`
      i = end
    } else re += c.replace(/[.+^${}()|\]\\/]/g, '\\$&')
  }
  try {
    return new RegExp(`^${re}$`).test(label)
  } catch {
    return false
  }
}

/** A schemeless URL's host labels, port and path (keyring.go's ParseSchemelessURL and SplitURL). */
function splitURL(s: string): { labels: string[]; port: string; path: string } {
  const slash = s.indexOf('/')
  const host = slash < 0 ? s : s.slice(0, slash)
  const path = slash < 0 ? '' : s.slice(slash)
  const m = /^(.*):(\d*)$/.exec(host)
  return { labels: (m ? m[1]! : host).split('.'), port: m ? m[2]! : '', path }
}

/** keyring.go's URLsMatch: same port, as many labels each matching its glob, the key's path a prefix of the image's. */
export function urlsMatch(glob: string, target: string): boolean {
  const g = splitURL(glob)
  const t = splitURL(target)
  if (g.port !== t.port || g.labels.length !== t.labels.length || !t.path.startsWith(g.path)) return false
  return g.labels.every((label, k) => globMatch(label, t.labels[k]!))
}

/** Whether an image pulls from Docker Hub by its name (keyring.go's isDefaultRegistryMatch). */
function isDefaultRegistryMatch(image: string): boolean {
  const slash = image.indexOf('/')
  const head = slash < 0 ? image : image.slice(0, slash)
  if (head.length === 0) return false
  if (slash < 0) return true
  if (head === 'docker.io' || head === 'index.docker.io') return true
  return !/[.:]/.test(head)
}

/** The credentials of the given pull secrets that match `image`, most specific registry key first. */
export function lookupCredentials(secrets: Obj[], image: string): PullCredential[] {
  const creds = new Map<string, PullCredential[]>()
  for (const secret of secrets) {
    const config = dockerConfigOf(secret)
    if (!config) continue
    for (const [location, entry] of Object.entries(config)) {
      const key = keyOf(location)
      creds.set(key, [...(creds.get(key) ?? []), entryCredential(entry as Obj)])
    }
  }
  const repo = repositoryOf(image)
  const index = [...creds.keys()].sort().reverse()
  const found = index.filter((k) => urlsMatch(k, repo)).flatMap((k) => creds.get(k)!)
  if (found.length > 0) return found
  return isDefaultRegistryMatch(repo) ? (creds.get(DEFAULT_REGISTRY_HOST) ?? []) : []
}

/**
 * A client configuration holding one credential for the image's registry, in a new directory (0700) under `root`:
 * `config.json` (0600) in docker's and podman's format (Docker Hub under both the legacy key docker reads and
 * docker.io, which podman reads). Answers the directory and how to remove it.
 */
export function writeClientConfig(root: string, image: string, cred: PullCredential): { dir: string; file: string } {
  mkdirSync(root, { recursive: true, mode: 0o700 })
  const dir = mkdtempSync(join(root, 'pull-'))
  const registry = registryOf(image)
  const entry = {
    auth: Buffer.from(`${cred.username}:${cred.password}`).toString('base64'),
    ...(cred.email ? { email: cred.email } : {}),
  }
  const keys = registry === 'docker.io' ? ['https://index.docker.io/v1/', 'docker.io'] : [registry]
  const file = join(dir, 'config.json')
  writeFileSync(file, JSON.stringify({ auths: Object.fromEntries(keys.map((k) => [k, entry])) }), { mode: 0o600 })
  return { dir, file }
}

/** Removes a client configuration written for a pull (and what an agent that died mid-pull left under `root`). */
export const removeClientConfig = (dir: string) => rmSync(dir, { recursive: true, force: true })
