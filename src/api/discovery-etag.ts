// The ETag of an aggregated discovery document, computed as kube's calculateETag does.
import { encodeBody } from '../registry/wire-json'

const TYPE_META = '{"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2",'

let memo: { text: string; etag: Promise<string> } | undefined

/**
 * SHA-512, in upper-case hex, of what Go's json.Marshal writes for the APIGroupDiscoveryList kube caches: the
 * document in Go's field order without its kind and apiVersion (the cached list's TypeMeta is empty). The document
 * changes only with the kind table (a CRD), so the last hash is kept for the same bytes.
 */
export function discoveryETag(document: { kind: string; apiVersion: string }): Promise<string> {
  const encoded = encodeBody(document).trimEnd()
  if (!encoded.startsWith(TYPE_META)) throw new Error(`not an apidiscovery.k8s.io/v2 list: ${encoded.slice(0, 80)}`)
  const text = `{${encoded.slice(TYPE_META.length)}`
  if (memo?.text !== text) memo = { text, etag: sha512Hex(text) }
  return memo.etag
}

async function sha512Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-512', new TextEncoder().encode(text)))
  let hex = ''
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0')
  return hex.toUpperCase()
}
