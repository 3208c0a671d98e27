// Static tokens: kube's --token-auth-file read through Go's encoding/csv (records, quotes, CRLF, errors with Go's byte
// columns), kube's column rules, hashed storage with no plaintext held, and the constant-time digest comparison.
import { describe, expect, it } from 'vitest'
import { timingSafeEqual } from '../../src/auth/timing-safe-equal'
import { StaticTokens } from '../../src/auth/token-file'

const SOURCE = '/etc/kubernetes/tokens.csv'
const load = (text: string) => StaticTokens.fromCsv(text, SOURCE)

describe('token file: records as Go encoding/csv and tokenfile.go read them', () => {
  it.each([
    ['three columns', 'tok,alice,u1\n', 'tok', { name: 'alice', uid: 'u1', groups: [] }],
    ['no trailing newline', 'tok,alice,u1', 'tok', { name: 'alice', uid: 'u1', groups: [] }],
    ['one group', 'tok,alice,u1,dev\n', 'tok', { name: 'alice', uid: 'u1', groups: ['dev'] }],
    [
      'quoted groups split on commas, untrimmed',
      'tok,alice,u1,"g1, g2,g3"\n',
      'tok',
      {
        name: 'alice',
        uid: 'u1',
        groups: ['g1', ' g2', 'g3'],
      },
    ],
    ['empty 4th column is one empty group', 'tok,alice,u1,\n', 'tok', { name: 'alice', uid: 'u1', groups: [''] }],
    [
      'columns after the 4th ignored',
      'tok,alice,u1,dev,ignored,"x,y"\n',
      'tok',
      {
        name: 'alice',
        uid: 'u1',
        groups: ['dev'],
      },
    ],
    ['empty uid', 'tok,alice,\n', 'tok', { name: 'alice', groups: [] }],
    ['quoted token holding a comma', '"a,b",alice,u1\n', 'a,b', { name: 'alice', uid: 'u1', groups: [] }],
    ['"" is an escaped quote', '"a""b",alice,u1\n', 'a"b', { name: 'alice', uid: 'u1', groups: [] }],
    ['quoted field across lines', 'tok,"multi\nline",u1\n', 'tok', { name: 'multi\nline', uid: 'u1', groups: [] }],
    [
      'CRLF inside a quoted field becomes LF',
      'tok,"multi\r\nline",u1\r\n',
      'tok',
      {
        name: 'multi\nline',
        uid: 'u1',
        groups: [],
      },
    ],
    ['CRLF line ends are not data', 'tok,alice,u1\r\ntok2,bob,u2\r\n', 'tok', { name: 'alice', uid: 'u1', groups: [] }],
    ['a \\r just before EOF is dropped', 'tok,alice,u1\r', 'tok', { name: 'alice', uid: 'u1', groups: [] }],
    ['a lone \\r mid-line is data', 'tok,ali\rce,u1\n', 'tok', { name: 'ali\rce', uid: 'u1', groups: [] }],
    [
      'leading spaces are data (no TrimLeadingSpace)',
      ' tok, alice,u1\n',
      ' tok',
      {
        name: ' alice',
        uid: 'u1',
        groups: [],
      },
    ],
    ['blank lines skipped', '\n\r\n\ntok,alice,u1\n\n', 'tok', { name: 'alice', uid: 'u1', groups: [] }],
  ])('%s', async (_, text, token, user) => {
    const tokens = await load(text)
    expect(await tokens.authenticate(token)).toEqual(user)
  })

  it('looks tokens up exactly: no trimming, no case folding, no prefix match', async () => {
    const tokens = await load(' tok,alice,u1\nAbC,bob,u2\n')
    for (const t of ['tok', ' tok ', 'abc', 'ABC', 'AbC ', 'Ab', '']) {
      expect(await tokens.authenticate(t), t).toBeNull()
    }
    expect((await tokens.authenticate('AbC'))?.name).toBe('bob')
  })

  it('the second row of CRLF file has no stray \\r in its uid', async () => {
    const tokens = await load('tok,alice,u1\r\ntok2,bob,u2\r\n')
    expect(await tokens.authenticate('tok2')).toEqual({ name: 'bob', uid: 'u2', groups: [] })
  })

  it('skips an empty token with kube warning, counting records as kube does', async () => {
    const tokens = await load('tok,alice,u1\n,nobody,u0\n"",nobody2,u00\ntok2,bob,u2\n')
    expect(tokens.size).toBe(2)
    expect(await tokens.authenticate('')).toBeNull()
    expect(tokens.warnings).toEqual([
      `empty token has been found in token file '${SOURCE}', record number '2'`,
      `empty token has been found in token file '${SOURCE}', record number '3'`,
    ])
  })

  it('a duplicate token: the last row wins, with a warning', async () => {
    const tokens = await load('tok,alice,u1,a\nother,carol,u3\ntok,bob,u2,b\n')
    expect(await tokens.authenticate('tok')).toEqual({ name: 'bob', uid: 'u2', groups: ['b'] })
    expect(tokens.warnings).toEqual([`duplicate token has been found in token file '${SOURCE}', record number '3'`])
  })

  it('returns a copy: changing the returned user does not change the file', async () => {
    const tokens = await load('tok,alice,u1,dev\n')
    const first = await tokens.authenticate('tok')
    first!.groups.push('system:masters')
    first!.name = 'mallory'
    expect(await tokens.authenticate('tok')).toEqual({ name: 'alice', uid: 'u1', groups: ['dev'] })
  })

  it('an empty file holds no tokens', async () => {
    const tokens = await load('')
    expect(tokens.size).toBe(0)
    expect(await tokens.authenticate('x')).toBeNull()
  })
})

describe('token file: errors as kube-apiserver refuses to start with them', () => {
  it.each([
    [
      'two columns',
      'tok,alice\n',
      `token file '${SOURCE}' must have at least 3 columns (token, user name, user uid), found 2`,
    ],
    [
      'one column',
      'tok\n',
      `token file '${SOURCE}' must have at least 3 columns (token, user name, user uid), found 1`,
    ],
    [
      'a line of spaces is a record',
      'tok,alice,u1\n   \n',
      `token file '${SOURCE}' must have at least 3 columns (token, user name, user uid), found 1`,
    ],
    ['bare quote', 'tok,al"ice,u1\n', 'parse error on line 1, column 7: bare " in non-quoted-field'],
    [
      'bare quote: columns count bytes, not characters',
      'tök,a"b,u1\n',
      'parse error on line 1, column 7: bare " in non-quoted-field',
    ],
    [
      'bare quote on a later line',
      'tok,alice,u1\n\nx,y"z,u2\n',
      'parse error on line 3, column 4: bare " in non-quoted-field',
    ],
    [
      'text after a closing quote',
      '"tok"x,alice,u1\n',
      'parse error on line 1, column 5: extraneous or missing " in quoted-field',
    ],
    [
      'unterminated quote at EOF',
      'ok,a,u1\n"tok,alice,u1\n',
      'parse error on line 2, column 15: extraneous or missing " in quoted-field',
    ],
    [
      'unterminated quote, no final newline',
      '"abc',
      'parse error on line 1, column 5: extraneous or missing " in quoted-field',
    ],
    [
      'error on a later line of a multi-line record',
      '"a\nb"x,c,d\n',
      'record on line 1; parse error on line 2, column 2: extraneous or missing " in quoted-field',
    ],
  ])('%s', async (_, text, message) => {
    await expect(load(text)).rejects.toThrow(message)
    await expect(load(text)).rejects.toThrow(new Error(message))
  })

  it('an error after valid rows still fails the whole file', async () => {
    await expect(load('tok,alice,u1\ntok2,bob\n')).rejects.toThrow('found 2')
  })
})

/** Every string reachable from a value: properties, Map keys and values, arrays, and byte arrays as hex and text. */
function reachableStrings(value: unknown, seen = new Set<unknown>()): string[] {
  if (typeof value === 'string') return [value]
  if (typeof value !== 'object' || value === null || seen.has(value)) return []
  seen.add(value)
  if (value instanceof Uint8Array) {
    return [
      Array.from(value, (b) => b.toString(16).padStart(2, '0')).join(''),
      new TextDecoder().decode(value),
      String.fromCharCode(...value),
    ]
  }
  const out: string[] = []
  if (value instanceof Map) {
    for (const [k, v] of value) out.push(...reachableStrings(k, seen), ...reachableStrings(v, seen))
  }
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key === 'string') out.push(key)
    out.push(...reachableStrings((value as Record<string | symbol, unknown>)[key], seen))
  }
  return out
}

const sha256Hex = async (s: string) =>
  Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(s))), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('')

describe('token file: storage', () => {
  const secret = 'kf-9c1d0e7a-plaintext-token-value'

  it('holds SHA-256 digests only: no plaintext token anywhere in the object', async () => {
    const tokens = await load(`${secret},alice,u1,dev\nsecond-secret-token,bob,u2\n`)
    const strings = reachableStrings(tokens)
    // The walk reaches the storage (the digest is there), and nothing reachable holds either token.
    expect(strings.join('\n')).toContain(await sha256Hex(secret))
    for (const s of strings) {
      expect(s).not.toContain(secret)
      expect(s).not.toContain('second-secret-token')
    }
    expect(JSON.stringify(tokens)).not.toContain(secret)
  })

  it('confirms a digest found by key with the constant-time comparison, over two 32-byte digests', async () => {
    const calls: [Uint8Array, Uint8Array][] = []
    const tokens = await StaticTokens.fromCsv(`${secret},alice,u1\n`, SOURCE, {
      equal: (a, b) => {
        calls.push([a, b])
        return timingSafeEqual(a, b)
      },
    })
    expect(await tokens.authenticate(secret)).toEqual({ name: 'alice', uid: 'u1', groups: [] })
    expect(calls).toHaveLength(1)
    expect(calls[0]![0]).toHaveLength(32)
    expect(calls[0]![1]).toHaveLength(32)
    expect(calls[0]![0]).toEqual(calls[0]![1])
  })

  it('the comparison decides: a failing comparison rejects even a token found by key', async () => {
    const tokens = await StaticTokens.fromCsv(`${secret},alice,u1\n`, SOURCE, { equal: () => false })
    expect(await tokens.authenticate(secret)).toBeNull()
  })
})

describe('timingSafeEqual', () => {
  it.each([
    [[1, 2, 3], [1, 2, 3], true],
    [[1, 2, 3], [1, 2, 4], false],
    [[9, 2, 3], [1, 2, 3], false],
    [[1, 2, 3], [1, 2], false],
    [[], [], true],
  ])('%j vs %j: %s', (a, b, expected) => {
    expect(timingSafeEqual(a, b)).toBe(expected)
  })

  it('reads every byte even when the first one differs (no early exit)', () => {
    const reads = new Set<number>()
    const counted = (bytes: number[]) =>
      new Proxy(bytes, {
        get(target, prop, receiver) {
          if (typeof prop === 'string' && /^\d+$/.test(prop)) reads.add(Number(prop))
          return Reflect.get(target, prop, receiver)
        },
      })
    const a = counted(Array.from({ length: 32 }, (_, i) => i))
    const b = Array.from({ length: 32 }, (_, i) => (i === 0 ? 255 : i))
    expect(timingSafeEqual(a, b)).toBe(false)
    expect(reads.size).toBe(32)
  })
})
