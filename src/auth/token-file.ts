// Static bearer tokens from kube's --token-auth-file format (k8s.io/apiserver tokenfile.go), held only as SHA-256
// digests: the plaintext tokens are read once, hashed, and dropped.
import type { UserInfo } from '../registry/user-info'
import { readCsv } from './go-csv'
import { timingSafeEqual } from './timing-safe-equal'

interface Entry {
  digest: Uint8Array
  user: UserInfo
}

const sha256 = async (text: string) =>
  new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')

export class StaticTokens {
  /** Keyed by the hex digest; the entry keeps the digest bytes for the constant-time confirmation. */
  private readonly byDigest: Map<string, Entry>

  private constructor(
    entries: Map<string, Entry>,
    /** kube's load-time warnings (empty and duplicate tokens), worded as kube logs them; they never quote a token. */
    readonly warnings: readonly string[],
    private readonly equal: (a: Uint8Array, b: Uint8Array) => boolean,
  ) {
    this.byDigest = entries
  }

  /**
   * Reads the file as kube does (digest §1.2): `token,user name,uid[,groups]` through Go's encoding/csv with
   * FieldsPerRecord = -1. Throws kube's error (a csv ParseError, or the column count naming `source`) where
   * kube-apiserver would refuse to start. `equal` is replaceable only so tests can watch the comparison happen.
   */
  static async fromCsv(
    text: string,
    source: string,
    options: { equal?: (a: Uint8Array, b: Uint8Array) => boolean } = {},
  ): Promise<StaticTokens> {
    const entries = new Map<string, Entry>()
    const warnings: string[] = []
    let recordNum = 0
    for (const record of readCsv(text)) {
      if (record.length < 3) {
        throw new Error(
          `token file '${source}' must have at least 3 columns (token, user name, user uid), found ${record.length}`,
        )
      }
      recordNum++
      const [token, name, uid] = record as [string, string, string]
      if (token === '') {
        warnings.push(`empty token has been found in token file '${source}', record number '${recordNum}'`)
        continue
      }
      const user: UserInfo = { name, groups: [] }
      if (uid !== '') user.uid = uid
      // strings.Split("", ",") is [""], so an empty 4th column is one empty group; columns after the 4th are ignored.
      if (record.length >= 4) user.groups = record[3]!.split(',')
      const digest = await sha256(token)
      const key = hex(digest)
      // A later row for the same token replaces the earlier one, as kube's map assignment does.
      if (entries.has(key)) {
        warnings.push(`duplicate token has been found in token file '${source}', record number '${recordNum}'`)
      }
      entries.set(key, { digest, user })
    }
    return new StaticTokens(entries, warnings, options.equal ?? timingSafeEqual)
  }

  get size(): number {
    return this.byDigest.size
  }

  /**
   * The token's user, or null (no opinion) for a token the file does not hold. The presented token is hashed and
   * its digest found by key, then confirmed with a constant-time comparison of the two digests.
   */
  async authenticate(token: string): Promise<UserInfo | null> {
    const digest = await sha256(token)
    const entry = this.byDigest.get(hex(digest))
    if (entry === undefined || !this.equal(entry.digest, digest)) return null
    // A copy: later steps (the authenticated-group adder, impersonation) must not change what the file says.
    const user: UserInfo = { name: entry.user.name, groups: [...entry.user.groups] }
    if (entry.user.uid !== undefined) user.uid = entry.user.uid
    return user
  }
}
