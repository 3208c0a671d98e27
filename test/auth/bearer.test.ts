// Where the bearer token comes from: the Authorization header as kube's bearertoken.go reads it, and the WebSocket
// subprotocol as kube's websocket protocol authenticator reads it (and what it leaves of the protocol header).
import { describe, expect, it } from 'vitest'
import { readAuthorization, readWebSocketProtocol } from '../../src/auth/bearer'
import { decodeRawUrlBase64, encodeRawUrlBase64 } from '../../src/auth/raw-url-base64'

const WARNING = 'the provided Authorization header contains extra space before the bearer token, and is ignored'

describe('Authorization header', () => {
  it.each<[string, string | null | undefined, string | null, string | undefined]>([
    ['absent', undefined, null, undefined],
    ['null', null, null, undefined],
    ['empty', '', null, undefined],
    ['only spaces', '   ', null, undefined],
    ['Bearer tok', 'Bearer tok', 'tok', undefined],
    ['scheme in lower case', 'bearer tok', 'tok', undefined],
    ['scheme in upper case', 'BEARER tok', 'tok', undefined],
    ['scheme in mixed case', 'BeArEr tok', 'tok', undefined],
    ['surrounding whitespace trimmed', ' \t Bearer tok \r\n', 'tok', undefined],
    ['words after the token ignored', 'Bearer tok extra words', 'tok', undefined],
    ['token keeps its case and symbols', 'Bearer AbC.dEf-_=+/', 'AbC.dEf-_=+/', undefined],
    ['Bearer alone: no opinion, no warning', 'Bearer', null, undefined],
    ['Bearer and a trailing space (trimmed away)', 'Bearer ', null, undefined],
    ['two spaces: no opinion and the warning', 'Bearer  tok', null, WARNING],
    ['three spaces: still the warning', 'Bearer   tok', null, WARNING],
    ['tab instead of space: one part, no opinion', 'Bearer\ttok', null, undefined],
    ['no separator', 'Bearertok', null, undefined],
    ['Basic', 'Basic dXNlcjpwYXNz', null, undefined],
    ['another scheme', 'Token tok', null, undefined],
    ['a non-breaking space is trimmed like Go', '\u00a0Bearer tok', 'tok', undefined],
    ['U+0085 is trimmed like Go (JS trim keeps it)', '\u0085Bearer tok\u0085', 'tok', undefined],
    ['a BOM is not space to Go (JS trim would drop it)', '\ufeffBearer tok', null, undefined],
  ])('%s', (_, header, token, warning) => {
    const reading = readAuthorization(header)
    expect(reading.token).toBe(token)
    expect(reading.warning).toBe(warning)
  })
})

const PREFIX = 'base64url.bearer.authorization.k8s.io.'
const b64 = (s: string) => encodeRawUrlBase64(new TextEncoder().encode(s))
const ws = (protocol: string | undefined, upgrade = 'websocket', connection = 'Upgrade') =>
  readWebSocketProtocol({ upgrade, connection, protocol })

describe('WebSocket bearer protocol', () => {
  it('takes the token and leaves the other protocols, joined by "," as kube rewrites the header', () => {
    expect(ws(`v4.channel.k8s.io, ${PREFIX}${b64('my-token')}, v5.channel.k8s.io`)).toEqual({
      token: 'my-token',
      protocols: 'v4.channel.k8s.io,v5.channel.k8s.io',
    })
  })

  it('reads a token holding any text (UTF-8) and a JWT', () => {
    expect(ws(`${PREFIX}${b64('tök.en/+=')},v5.channel.k8s.io`)).toEqual({
      token: 'tök.en/+=',
      protocols: 'v5.channel.k8s.io',
    })
    const jwt = 'eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJ4In0.c2ln'
    expect(ws(`${PREFIX}${b64(jwt)}, channel.k8s.io`)).toMatchObject({ token: jwt })
  })

  it.each([
    ['no Upgrade header', { connection: 'Upgrade', protocol: `${PREFIX}${b64('t')}, x` }],
    ['Upgrade is not websocket', { upgrade: 'h2c', connection: 'Upgrade', protocol: `${PREFIX}${b64('t')}, x` }],
    [
      'Connection without upgrade',
      { upgrade: 'websocket', connection: 'keep-alive', protocol: `${PREFIX}${b64('t')}, x` },
    ],
    ['no protocol header', { upgrade: 'websocket', connection: 'Upgrade' }],
    ['no token protocol', { upgrade: 'websocket', connection: 'Upgrade', protocol: 'v5.channel.k8s.io' }],
    ['an empty token', { upgrade: 'websocket', connection: 'Upgrade', protocol: `${PREFIX}, v5.channel.k8s.io` }],
    [
      'the prefix in another case is just a protocol',
      { upgrade: 'websocket', connection: 'Upgrade', protocol: `${PREFIX.toUpperCase()}${b64('t')}, x` },
    ],
  ])('no opinion: %s', (_, headers) => {
    expect(readWebSocketProtocol(headers)).toEqual({ token: null })
  })

  it('recognises the upgrade case-insensitively and within a Connection list', () => {
    expect(ws(`${PREFIX}${b64('t')}, x`, 'WebSocket', 'keep-alive, Upgrade')).toEqual({ token: 't', protocols: 'x' })
  })

  it.each([
    ['the token is the only protocol', `${PREFIX}${b64('t')}`, 'missing additional subprotocol'],
    [
      'two token protocols',
      `${PREFIX}${b64('a')}, ${PREFIX}${b64('b')}, x`,
      'multiple base64.bearer.authorization tokens specified',
    ],
    [
      'two token protocols, the first empty',
      `${PREFIX}, ${PREFIX}${b64('b')}, x`,
      'multiple base64.bearer.authorization tokens specified',
    ],
    [
      'padding is not allowed (RawURLEncoding)',
      `${PREFIX}dG9rZQ==, x`,
      'invalid base64.bearer.authorization token encoding',
    ],
    ['standard alphabet is not allowed', `${PREFIX}a+b/, x`, 'invalid base64.bearer.authorization token encoding'],
    ['a lone final character', `${PREFIX}dG9rZ, x`, 'invalid base64.bearer.authorization token encoding'],
    [
      'not UTF-8',
      `${PREFIX}${encodeRawUrlBase64(new Uint8Array([0x74, 0xff]))}, x`,
      'invalid base64.bearer.authorization token',
    ],
  ])('error: %s', (_, protocol, error) => {
    expect(ws(protocol)).toEqual({ error })
  })

  it('an empty protocol left by a trailing comma counts as another protocol', () => {
    expect(ws(`${PREFIX}${b64('t')},`)).toEqual({ token: 't', protocols: '' })
  })
})

describe('RawURLEncoding', () => {
  it.each([
    ['', []],
    ['dA', [0x74]],
    ['dG8', [0x74, 0x6f]],
    ['dG9r', [0x74, 0x6f, 0x6b]],
    ['-_8', [0xfb, 0xff]],
    // Not Strict(): non-zero bits past the last byte are ignored.
    ['dB', [0x74]],
    // \r and \n are skipped anywhere.
    ['dG\r\n9r', [0x74, 0x6f, 0x6b]],
  ])('decodes %j', (text, bytes) => {
    expect(Array.from(decodeRawUrlBase64(text)!)).toEqual(bytes)
  })

  it.each(['d', 'dG9rZ', 'dA==', 'dA=', 'd+A', 'd/A', 'dA A'])('refuses %j', (text) => {
    expect(decodeRawUrlBase64(text)).toBeNull()
  })

  it('encodes without padding in the URL alphabet', () => {
    expect(encodeRawUrlBase64(new Uint8Array([0xfb, 0xff]))).toBe('-_8')
    expect(encodeRawUrlBase64(new TextEncoder().encode('tok'))).toBe('dG9r')
    expect(encodeRawUrlBase64(new TextEncoder().encode('toke'))).toBe('dG9rZQ')
  })
})
