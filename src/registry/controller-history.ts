// ControllerRevisions as kube's history helpers make them (pkg/controller/history, the daemon set and stateful set
// controllers' getPatch): the revision data is a patch restoring the owner's pod template
// ({"spec":{"template":{"$patch":"replace",...}}}, keys sorted as Go's json.Marshal of a map sorts them), its hash is
// FNV-1 (32 bit) over those bytes plus the collision count in decimal, rendered with rand.SafeEncodeString, and a
// revision is named <owner>-<hash>. Pure.
//
// kube names DaemonSet revisions with controller.ComputeHash (a go-spew dump of the template); here both kinds use the
// revision hash above: stable for a template, not the string a real cluster gives it.
import type { KubeObject } from '../schema/meta'
import { GENERATED_NAME_ALPHABET } from './generate-name'

type Obj = Record<string, any>

/** The label kube puts on revisions and on the pods made from them. */
export const REVISION_HASH_LABEL = 'controller-revision-hash'

/** A JSON value with every object's keys in byte order, as json.Marshal writes a map[string]interface{}. */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted)
  if (v === null || typeof v !== 'object') return v
  const out: Obj = {}
  for (const k of Object.keys(v).sort()) out[k] = sorted((v as Obj)[k])
  return out
}

/** Go's json.Marshal escapes <, > and & inside strings. */
const goJson = (v: unknown) =>
  JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)

/** getPatch: the revision data for an owner (DaemonSet or StatefulSet) as stored, and its bytes. */
export function templatePatch(owner: KubeObject): { data: Obj; raw: string } {
  const template = structuredClone(((owner as Obj).spec?.template ?? {}) as Obj)
  template.$patch = 'replace'
  const data = sorted({ spec: { template } }) as Obj
  return { data, raw: goJson(data) }
}

/** Whether a revision holds the owner's current template (kube's Match: the patch bytes are equal). */
export const revisionMatches = (owner: KubeObject, revision: KubeObject) =>
  goJson(sorted((revision as Obj).data)) === templatePatch(owner).raw

/** rand.SafeEncodeString: each byte mapped into the alphabet without vowels. */
function safeEncode(s: string): string {
  let out = ''
  for (const byte of new TextEncoder().encode(s)) out += GENERATED_NAME_ALPHABET[byte % GENERATED_NAME_ALPHABET.length]
  return out
}

/** HashControllerRevision: FNV-1 over the data's bytes, then the collision count's decimal digits. */
export function revisionHash(raw: string, collisionCount?: number): string {
  let h = 0x811c9dc5
  const bytes = new TextEncoder().encode(collisionCount === undefined ? raw : `${raw}${collisionCount}`)
  for (const b of bytes) {
    h = Math.imul(h, 0x01000193) >>> 0
    h = (h ^ b) >>> 0
  }
  return safeEncode(String(h >>> 0))
}

/** ControllerRevisionName: the owner's name (cut to 223 characters) and the hash. */
export const revisionName = (owner: string, hash: string) =>
  `${owner.length > 223 ? owner.slice(0, 223) : owner}-${hash}`
