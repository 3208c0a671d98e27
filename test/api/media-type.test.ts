// Go's mime.ParseMediaType and goautoneg.ParseAccept as src/api/media-type.ts ports them: the cases that decide
// whether kube-apiserver answers 415 or 406.
import { describe, expect, it } from 'vitest'
import { parseAccept, parseMediaType } from '../../src/api/media-type'

describe('parseMediaType (Go mime.ParseMediaType)', () => {
  it.each([
    ['application/json', 'application/json'],
    ['Application/JSON; charset=UTF-8', 'application/json'],
    ['  application/yaml  ', 'application/yaml'],
    ['application/json;', 'application/json'],
    ['application/json; charset=utf-8;', 'application/json'],
    ['application/json; a="x;y"', 'application/json'],
    ['application/json; a=1; a=1', 'application/json'],
    // A type without a subtype is a disposition Go accepts.
    ['json', 'json'],
    ['text/yaml', 'text/yaml'],
  ])('%j reads as %j', (header, type) => {
    expect(parseMediaType(header)).toBe(type)
  })

  it.each([
    [';;;'],
    [''],
    ['application/'],
    ['/json'],
    ['application/json/x'],
    ['application/json; charset'],
    ['application/json; charset='],
    ['application/json; a=1; a=2'],
    ['application/json; a="unterminated'],
    ['application/json x'],
    ['applicätion/json'],
  ])('%j is an error', (header) => {
    expect(parseMediaType(header)).toBeNull()
  })
})

describe('parseAccept (goautoneg.ParseAccept)', () => {
  it("reads kubectl's Table request in its order", () => {
    const clauses = parseAccept(
      'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json',
    )
    expect(clauses.map((c) => [c.type, c.subType, c.params.v ?? ''])).toEqual([
      ['application', 'json', 'v1'],
      ['application', 'json', 'v1beta1'],
      ['application', 'json', ''],
    ])
  })

  it('drops clauses without a subtype (except *), and parameters without exactly one =', () => {
    expect(parseAccept(';;;')).toEqual([])
    expect(parseAccept('text, application/')).toEqual([])
    expect(parseAccept('a/b/c')).toEqual([])
    expect(parseAccept('*')).toMatchObject([{ type: '*', subType: '*' }])
    const [c] = parseAccept('application/json;a;b=;c=d=e;f= g ;h=i=')
    expect({ ...c!.params }).toEqual({ f: 'g', h: 'i' })
  })

  it('sorts by q, then concrete types before wildcards; an unparsable q is 0', () => {
    const order = (h: string) => parseAccept(h).map((c) => `${c.type}/${c.subType}`)
    expect(order('*/*, application/json')).toEqual(['application/json', '*/*'])
    expect(order('text/html;q=0.1, application/yaml;q=0.5, application/json')).toEqual([
      'application/json',
      'application/yaml',
      'text/html',
    ])
    expect(parseAccept('a/b;q=x')[0]!.q).toBe(0)
    expect(parseAccept('a/b;q= 1')[0]!.q).toBe(0)
    expect(parseAccept('a/b;q=1e39')[0]!.q).toBe(Number.POSITIVE_INFINITY)
    expect(parseAccept('a/b;q=0x1p-1')[0]!.q).toBe(0.5)
  })

  it('keeps a parameter named __proto__ as a parameter', () => {
    const [c] = parseAccept('application/json;__proto__=x')
    expect(Object.entries(c!.params)).toEqual([['__proto__', 'x']])
  })
})
