// Encryption at rest of the kinds whose rows say so (Secrets), as kube's EncryptionConfiguration `aesgcm` provider
// does: AES-GCM under a key from the KUBEFLARE_ENCRYPTION_KEY secret, a fresh 96-bit nonce per write, values tagged
// `k8s:enc:aesgcm:v1:<key name>:` so a key can be rotated (the first key encrypts, every key decrypts) and objects
// written before a key existed (or by a server without one) stay readable as plain JSON, as with kube's identity
// provider. stored-json.ts is the one caller: every object stored in a Durable Object or D1 is encoded there.
//
// An encrypted object is stored as JSON that keeps only what indexes need in the clear (kube keeps labels out of the
// ciphertext's reach too: they are not secret): `{"kubeflare.encrypted":"k8s:enc:aesgcm:v1:key1:<base64>",
// "metadata":{"name":...,"namespace":...,"labels":{...}}}`. That metadata text is the cipher's additional data,
// so it cannot be edited (a label moved, an envelope swapped onto another name) without decryption failing.
// Synchronous (noble's AES-GCM): Durable Object SQLite reads are synchronous, WebCrypto is not.
import { gcm } from '@noble/ciphers/aes.js'
import type { KubeObject } from '../schema/meta'
import { decodeBase64, encodeBase64 } from './go-base64'

const TAG = '{"kubeflare.encrypted":"'
const PREFIX = 'k8s:enc:aesgcm:v1:'
const NONCE_BYTES = 12

interface Key {
  name: string
  bytes: Uint8Array
}

interface Config {
  /** The setting as read (reconfiguring with the same text is free). */
  text: string | undefined
  /** The first key encrypts; all of them decrypt. Empty: objects are stored as they are (kube's identity). */
  keys: Key[]
  /** Why the setting cannot be used, or null. */
  error: string | null
  encrypts: (resource: string) => boolean
}

let config: Config = { text: undefined, keys: [], error: null, encrypts: () => false }

/**
 * Reads KUBEFLARE_ENCRYPTION_KEY: one base64 AES key of 16, 24 or 32 bytes (named key1), or comma-separated
 * `name:base64` entries, the first of which encrypts. Throws with what is wrong (names only, never key bytes).
 */
function parseKeys(text: string): Key[] {
  const keys: Key[] = []
  const entries = text.split(',').map((e) => e.trim())
  for (const [i, entry] of entries.entries()) {
    const colon = entry.indexOf(':')
    const name = colon < 0 ? `key${i + 1}` : entry.slice(0, colon)
    const secret = colon < 0 ? entry : entry.slice(colon + 1)
    if (!/^[A-Za-z0-9._-]+$/.test(name)) throw new Error(`key ${i + 1}: a key name is letters, digits, '.', '_' or '-'`)
    if (keys.some((k) => k.name === name)) throw new Error(`key ${JSON.stringify(name)} is given twice`)
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(secret) || secret.length % 4 !== 0)
      throw new Error(`key ${JSON.stringify(name)} is not base64`)
    const bytes = decodeBase64(secret)
    if (![16, 24, 32].includes(bytes.length))
      throw new Error(`key ${JSON.stringify(name)} has ${bytes.length} bytes; AES-GCM takes 16, 24 or 32`)
    keys.push({ name, bytes })
  }
  return keys
}

/**
 * Sets the keys (from KUBEFLARE_ENCRYPTION_KEY) and which resources are encrypted, for this isolate. Every Durable
 * Object and the Worker call it before touching storage; repeating it with the same setting costs nothing. Returns
 * the problem with the setting, or null.
 */
export function configureEncryption(
  keyText: string | undefined,
  encrypts: (resource: string) => boolean,
): string | null {
  if (keyText !== config.text) {
    let keys: Key[] = []
    let error: string | null = null
    try {
      keys = keyText ? parseKeys(keyText) : []
    } catch (e) {
      error = `KUBEFLARE_ENCRYPTION_KEY: ${(e as Error).message}`
    }
    config = { text: keyText, keys, error, encrypts }
  } else {
    config.encrypts = encrypts
  }
  return config.error
}

/** Whether objects of `resource` are written encrypted (a key is set and the kind asks for it). */
export const encryptsAtRest = (resource: string): boolean => config.keys.length > 0 && config.encrypts(resource)

const utf8 = new TextEncoder()
const text = new TextDecoder()

/** The metadata kept in the clear, as JSON text in a fixed order (it is the additional data). */
function clearMetadata(obj: KubeObject): string {
  const m = obj.metadata
  const parts: string[] = []
  if (m.name !== undefined) parts.push(`"name":${JSON.stringify(m.name)}`)
  if (m.namespace !== undefined) parts.push(`"namespace":${JSON.stringify(m.namespace)}`)
  if (m.labels !== undefined) parts.push(`"labels":${JSON.stringify(m.labels)}`)
  return `{${parts.join(',')}}`
}

/** The stored form of an object's JSON: encrypted under the first key (call only when encryptsAtRest). */
export function seal(obj: KubeObject, json: string): string {
  if (config.error) throw new Error(config.error)
  const key = config.keys[0]!
  const meta = clearMetadata(obj)
  const nonce = crypto.getRandomValues(new Uint8Array(NONCE_BYTES))
  const sealed = gcm(key.bytes, nonce, utf8.encode(meta)).encrypt(utf8.encode(json))
  const payload = new Uint8Array(NONCE_BYTES + sealed.length)
  payload.set(nonce)
  payload.set(sealed, NONCE_BYTES)
  return `${TAG}${PREFIX}${key.name}:${encodeBase64(payload)}","metadata":${meta}}`
}

/** Whether stored JSON is an encrypted envelope (anything else is a plain object). */
export const isSealed = (stored: string): boolean => stored.startsWith(TAG)

/** The object JSON inside an envelope. Throws kube's wording when no key opens it (an InternalError for the read). */
export function open(stored: string): string {
  const end = stored.indexOf('"', TAG.length)
  const value = stored.slice(TAG.length, end)
  const meta = stored.slice(end + '","metadata":'.length, -1)
  const rest = value.startsWith(PREFIX) ? value.slice(PREFIX.length) : ''
  const colon = rest.indexOf(':')
  const name = rest.slice(0, colon)
  if (config.error) throw new Error(config.error)
  const key = config.keys.find((k) => k.name === name)
  if (colon < 0 || !key)
    throw new Error('no matching prefix found: the encryption key this object was written with is not configured')
  const payload = decodeBase64(rest.slice(colon + 1))
  try {
    const plain = gcm(key.bytes, payload.subarray(0, NONCE_BYTES), utf8.encode(meta)).decrypt(
      payload.subarray(NONCE_BYTES),
    )
    return text.decode(plain)
  } catch {
    throw new Error(`unable to decrypt with key ${JSON.stringify(name)}: the stored object or its metadata was altered`)
  }
}
