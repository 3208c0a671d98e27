// A minimal Kubernetes-protobuf writer for tests: fields built by number from k8s.io/api's generated.proto,
// independently of the server's descriptors (src/api/protobuf/), and the `k8s\0` envelope kubectl sends.
export type Part = number[]
const utf8 = new TextEncoder()
const varint = (v: number): number[] => {
  const out: number[] = []
  let x = v
  do {
    let b = x & 0x7f
    x = Math.floor(x / 128)
    if (x) b |= 0x80
    out.push(b)
  } while (x)
  return out
}
const tag = (n: number, wire: number) => varint(n * 8 + wire)
const len = (n: number, b: number[]): Part => [...tag(n, 2), ...varint(b.length), ...b]
export const I = (n: number, v: number | boolean): Part => [
  ...tag(n, 0),
  ...varint(typeof v === 'boolean' ? Number(v) : v),
]
export const S = (n: number, s: string): Part => len(n, [...utf8.encode(s)])
export const M = (n: number, ...parts: Part[]): Part => len(n, parts.flat())
export const envelope = (apiVersion: string, kind: string, body: Part[]) =>
  Uint8Array.from([
    0x6b,
    0x38,
    0x73,
    0x00,
    ...M(1, S(1, apiVersion), S(2, kind)),
    ...M(2, ...body),
    ...S(3, ''),
    ...S(4, ''),
  ])
