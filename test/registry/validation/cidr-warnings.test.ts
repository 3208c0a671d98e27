// GetWarningsForCIDR as kube 1.33 words it, and a NetworkPolicy's ipBlocks getting those Warnings on create and
// update (kubectl prints them), where kube's networkPolicyWarnings sends them.
import { describe, expect, it } from 'vitest'
import { cidrWarnings } from '../../../src/registry/validation/cidr-warnings'
import { makeNamespace, req } from '../../helpers'

describe('GetWarningsForCIDR', () => {
  const cases: [string, string[]][] = [
    ['10.0.0.0/8', []],
    ['2001:db8::/32', []],
    [
      '10.0.0.1/8',
      ['f: CIDR value "10.0.0.1/8" is ambiguous in this context (should be "10.0.0.0/8" or "10.0.0.1/32"?)'],
    ],
    [
      '010.0.0.0/8',
      [
        'f: non-standard CIDR value "010.0.0.0/8" will be considered invalid in a future Kubernetes release: use "10.0.0.0/8"',
      ],
    ],
    [
      '2001:DB8:0:0::/64',
      ['f: IPv6 CIDR value "2001:DB8:0:0::/64" should be in RFC 5952 canonical format ("2001:db8::/64")'],
    ],
    [
      '2001:db8::1/64',
      ['f: CIDR value "2001:db8::1/64" is ambiguous in this context (should be "2001:db8::/64" or "2001:db8::1/128"?)'],
    ],
    ['not-a-cidr', []],
  ]
  for (const [value, want] of cases) it(value, () => expect(cidrWarnings('f', value)).toEqual(want))
})

describe('a NetworkPolicy with ambiguous ipBlocks', () => {
  it('is stored, with a Warning per CIDR on create and on an update that changes the spec', async () => {
    const ns = await makeNamespace('np-warn')
    const body = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'w' },
      spec: {
        podSelector: {},
        egress: [{ to: [{ ipBlock: { cidr: '10.0.0.1/8', except: ['10.1.0.0/16'] } }] }],
      },
    }
    const path = `/apis/networking.k8s.io/v1/namespaces/${ns}/networkpolicies`
    const made = await req('POST', path, body)
    expect(made.status, made.text).toBe(201)
    const warning =
      '299 - "spec.egress[0].to[0].ipBlock.cidr: CIDR value \\"10.0.0.1/8\\" is ambiguous in this context (should be \\"10.0.0.0/8\\" or \\"10.0.0.1/32\\"?)"'
    expect(made.headers.get('warning')).toBe(warning)
    // kube's WarningsOnUpdate warns only when the generation moved: a label edit repeats nothing.
    const put = await req('PUT', `${path}/w`, { ...made.json, metadata: { ...made.json.metadata, labels: { a: 'b' } } })
    expect(put.status, put.text).toBe(200)
    expect(put.headers.get('warning')).toBeNull()
    const spec = { ...put.json.spec, ingress: [{ from: [{ podSelector: {} }] }] }
    const changed = await req('PUT', `${path}/w`, { ...put.json, spec })
    expect(changed.status, changed.text).toBe(200)
    expect(changed.json.metadata.generation).toBe(2)
    expect(changed.headers.get('warning')).toBe(warning)
  })
})
