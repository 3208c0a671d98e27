// A verified ServiceAccount token's payload read as go-jose's jwt.Claims and kube's privateClaims struct
// (pkg/serviceaccount/claims.go): which fields kube reads, their Go types, and what counts as absent.

export interface Ref {
  name: string
  uid: string
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

export interface Claims {
  iss: string
  aud: string[]
  exp: number | null
  nbf: number | null
  iat: number | null
  jti: string
  namespace: string
  serviceAccount: Ref
  pod: Ref | null
  secret: Ref | null
  node: Ref | null
}

/**
 * The payload's claims; a value of the wrong JSON type is an error (Go's json.Unmarshal fails the token), null or
 * absent reads as Go's zero value.
 */
export function decodeClaims(payload: Uint8Array): Claims | string {
  let p: unknown
  try {
    p = JSON.parse(new TextDecoder().decode(payload))
  } catch {
    return 'go-jose/go-jose: invalid payload'
  }
  if (!isObject(p)) return 'go-jose/go-jose: invalid payload'
  const str = (v: unknown, what: string) => {
    if (v === undefined || v === null) return ''
    if (typeof v !== 'string') throw `json: cannot unmarshal ${what} into Go value of type string`
    return v
  }
  // NumericDate reads a float and keeps whole seconds.
  const date = (v: unknown) => {
    if (v === undefined || v === null) return null
    if (typeof v !== 'number') throw 'go-jose/go-jose/jwt: expected number value to unmarshal NumericDate'
    return Math.trunc(v)
  }
  const refOf = (v: unknown, what: string): Ref | null => {
    if (v === undefined || v === null) return null
    if (!isObject(v)) throw `json: cannot unmarshal ${what} into Go value of type serviceaccount.ref`
    return { name: str(v.name, `${what}.name`), uid: str(v.uid, `${what}.uid`) }
  }
  try {
    const aud = p.aud
    let audiences: string[]
    if (aud === undefined || aud === null) audiences = []
    else if (typeof aud === 'string') audiences = [aud]
    else if (Array.isArray(aud) && aud.every((a) => typeof a === 'string')) audiences = aud
    else throw 'go-jose/go-jose/jwt: expected string or array value to unmarshal to Audience'
    const k = p['kubernetes.io']
    if (k !== undefined && k !== null && !isObject(k)) {
      throw 'json: cannot unmarshal kubernetes.io into Go value of type serviceaccount.kubernetes'
    }
    const kube = k ?? {}
    return {
      iss: str(p.iss, 'iss'),
      aud: audiences,
      exp: date(p.exp),
      nbf: date(p.nbf),
      iat: date(p.iat),
      jti: str(p.jti, 'jti'),
      namespace: str(kube.namespace, 'namespace'),
      serviceAccount: refOf(kube.serviceaccount, 'serviceaccount') ?? { name: '', uid: '' },
      pod: refOf(kube.pod, 'pod'),
      secret: refOf(kube.secret, 'secret'),
      node: refOf(kube.node, 'node'),
    }
  } catch (message) {
    return String(message)
  }
}
