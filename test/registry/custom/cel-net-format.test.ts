// kube's ip, cidr and format CEL libraries (k8s.io/apiserver pkg/cel/library ip.go, cidr.go, format.go), with the
// cases of kube's ip_test.go, cidr_test.go and format_test.go (release-1.33): values, runtime errors worded as Go's
// net/netip and kube's wrappers, and the CRD-time acceptance of rules using them. semver() is in kube's environment
// only for expressions stored before 1.33's compatibility version allowed it: a new rule using it is refused.
import { isCelError, isCelList, parse } from '@bufbuild/cel'
import { describe, expect, it } from 'vitest'
import { meteredEnv, PER_CALL_LIMIT, planMetered } from '../../../src/registry/custom/cel/cel-cost'
import { KUBERNETES_FUNCS } from '../../../src/registry/custom/cel/cel-libs'
import { checkRules } from '../../../src/registry/custom/cel/cel-rules'
import { ruleValidator } from '../../../src/registry/custom/cel/cel-validator'
import type { JSONSchemaProps } from '../../../src/registry/crd/json-schema'
import { newStructural } from '../../../src/registry/crd/structural'
import { FieldPath, renderFieldError } from '../../../src/registry/field-errors'

const env = meteredEnv(KUBERNETES_FUNCS)

/** The value of a constant expression: lists as arrays, errors as { error }. */
function evaluate(expr: string): unknown {
  const v = planMetered(env, parse(expr)).run({}, PER_CALL_LIMIT).value
  if (isCelError(v)) return { error: (v as Error).message }
  return isCelList(v) ? [...v] : v
}

describe('ip', () => {
  it.each([
    ['string(ip("192.168.0.1"))', '192.168.0.1'],
    [
      'ip("192.168.0.1.0")',
      {
        error:
          'IP Address "192.168.0.1.0" parse error during conversion from string: ParseAddr("192.168.0.1.0"): IPv4 address too long',
      },
    ],
    ['isIP("192.168.0.1")', true],
    ['isIP("192.168.0.1.0")', false],
    ['ip.isCanonical("127.0.0.1")', true],
    [
      'ip.isCanonical("127.0.0.1.0")',
      {
        error:
          'IP Address "127.0.0.1.0" parse error during conversion from string: ParseAddr("127.0.0.1.0"): IPv4 address too long',
      },
    ],
    ['ip("192.168.0.1").family()', 4n],
    ['ip("0.0.0.0").isUnspecified()', true],
    ['ip("127.0.0.1").isUnspecified()', false],
    ['ip("127.0.0.1").isLoopback()', true],
    ['ip("1.2.3.4").isLoopback()', false],
    ['ip("224.0.0.1").isLinkLocalMulticast()', true],
    ['ip("224.0.1.1").isLinkLocalMulticast()', false],
    ['ip("169.254.169.254").isLinkLocalUnicast()', true],
    ['ip("192.168.0.1").isLinkLocalUnicast()', false],
    ['ip("192.168.0.1").isGlobalUnicast()', true],
    ['ip("255.255.255.255").isGlobalUnicast()', false],
    ['string(ip("2001:db8::68"))', '2001:db8::68'],
    [
      'ip("2001:db8:::68")',
      {
        error:
          'IP Address "2001:db8:::68" parse error during conversion from string: ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")',
      },
    ],
    ['isIP("2001:db8::68")', true],
    ['isIP("2001:db8:::68")', false],
    ['ip.isCanonical("2001:db8::68")', true],
    ['ip.isCanonical("2001:DB8::68")', false],
    ['ip("2001:db8::68").family()', 6n],
    ['ip("::").isUnspecified()', true],
    ['ip("::1").isUnspecified()', false],
    ['ip("::1").isLoopback()', true],
    ['ip("2001:db8::abcd").isLoopback()', false],
    ['ip("ff02::1").isLinkLocalMulticast()', true],
    ['ip("fd00::1").isLinkLocalMulticast()', false],
    ['ip("fe80::1").isLinkLocalUnicast()', true],
    ['ip("fd80::1").isLinkLocalUnicast()', false],
    ['ip("2001:db8::abcd").isGlobalUnicast()', true],
    ['ip("ff00::1").isGlobalUnicast()', false],
    // The documented refusals: leading zeros, zones, IPv4-mapped IPv6.
    [
      'ip("127.0.0.01")',
      {
        error:
          'IP Address "127.0.0.01" parse error during conversion from string: ParseAddr("127.0.0.01"): IPv4 field has octet with leading zero',
      },
    ],
    ['ip("fe80::1%eth0")', { error: 'IP address "fe80::1%eth0" with zone value is not allowed' }],
    ['ip("::ffff:1.2.3.4")', { error: 'IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed' }],
    ['isIP("::ffff:1.2.3.4")', false],
    // Canonical forms (RFC 5952 as Go prints it) and equality of parsed addresses.
    ['string(ip("2001:0db8:0:0:0:0:0:0001"))', '2001:db8::1'],
    ['string(ip("1:0:0:1:0:0:0:1"))', '1:0:0:1::1'],
    ['ip.isCanonical("2001:db8::0:0:0:abcd")', false],
    ['ip("2001:db8::0:1") == ip("2001:db8::1")', true],
    ['string(ip("::1.2.3.4"))', '::102:304'],
  ])('%s', (expr, want) => {
    expect(evaluate(expr)).toEqual(want)
  })
})

describe('cidr', () => {
  const bad = (s: string, why: string) => ({
    error: `network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix(${JSON.stringify(s)}): ${why}`,
  })
  it.each([
    ['string(cidr("192.168.0.0/24"))', '192.168.0.0/24'],
    ['cidr("192.168.0.0/")', bad('192.168.0.0/', 'bad bits after slash: ""')],
    ['cidr("192.168.0.0/24").containsIP(ip("192.168.0.1"))', true],
    ['cidr("192.168.0.0/24").containsIP(ip("192.168.1.1"))', false],
    ['cidr("192.168.0.0/24").containsIP("192.168.0.1")', true],
    ['cidr("192.168.0.0/24").containsIP("192.168.1.1")', false],
    ['cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/25"))', true],
    ['cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.1/32"))', true],
    ['cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/23"))', false],
    ['cidr("192.168.0.0/24").containsCIDR(cidr("192.169.0.1/32"))', false],
    ['cidr("192.168.0.0/24").containsCIDR("192.168.0.0/25")', true],
    ['cidr("192.168.0.0/24").containsCIDR("192.168.0.0/23")', false],
    ['string(cidr("192.168.0.0/24").ip())', '192.168.0.0'],
    ['string(cidr("192.168.0.0/24").masked())', '192.168.0.0/24'],
    ['string(cidr("192.168.0.1/24").masked())', '192.168.0.0/24'],
    ['cidr("192.168.0.0/24").prefixLength()', 24n],
    ['string(cidr("2001:db8::/32"))', '2001:db8::/32'],
    ['cidr("2001:db8::/")', bad('2001:db8::/', 'bad bits after slash: ""')],
    ['cidr("2001:db8::/32").containsIP(ip("2001:db8::1"))', true],
    ['cidr("2001:db8::/32").containsIP(ip("2001:dc8::1"))', false],
    ['cidr("2001:db8::/32").containsIP("2001:db8::1")', true],
    ['cidr("2001:db8::/32").containsIP("2001:dc8::1")', false],
    ['cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/33"))', true],
    ['cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/31"))', false],
    ['cidr("2001:db8::/32").containsCIDR("2001:db8::/33")', true],
    ['cidr("2001:db8::/32").containsCIDR("2001:db8::/31")', false],
    ['string(cidr("2001:db8::/32").ip())', '2001:db8::'],
    ['string(cidr("2001:db8::/32").masked())', '2001:db8::/32'],
    ['string(cidr("2001:db8:1::/32").masked())', '2001:db8::/32'],
    ['cidr("2001:db8::/32").prefixLength()', 32n],
    // The documented rules: masks past the family, no mapped addresses; an address with host bits is kept.
    ['isCIDR("192.168.0.0/33")', false],
    ['isCIDR("::1/129")', false],
    ['isCIDR("::ffff:1.2.3.4/24")', false],
    ['cidr("192.168.0.0/33")', bad('192.168.0.0/33', 'prefix length out of range')],
    ['cidr("192.168.0.0/024")', bad('192.168.0.0/024', 'bad bits after slash: "024"')],
    ['string(cidr("192.168.0.1/24").ip())', '192.168.0.1'],
    ['cidr("192.168.0.1/24") == cidr("192.168.0.1/24").masked()', false],
    ['cidr("10.0.0.0/8").containsIP(ip("2001:db8::1"))', false],
  ])('%s', (expr, want) => {
    expect(evaluate(expr)).toEqual(want)
  })
})

const LABEL_ERR =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
const SUBDOMAIN_ERR =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
const DNS1035_ERR =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"

describe('format', () => {
  /** validate()'s answer: null for optional.none(), else the list of errors. */
  const check = (f: string, s: string) => {
    const some = evaluate(`format.${f}().validate(${JSON.stringify(s)}).hasValue()`)
    return some ? evaluate(`format.${f}().validate(${JSON.stringify(s)}).value()`) : null
  }
  it.each([
    ['dns1123Label', 'my-label-name', null],
    ['dns1123Subdomain', 'apiextensions.k8s.io', null],
    ['qualifiedName', 'apiextensions.k8s.io/v1beta1', null],
    ['dns1123LabelPrefix', 'my-label-prefix-', null],
    ['dns1123SubdomainPrefix', 'mysubdomain.prefix.-', null],
    ['dns1035LabelPrefix', 'my-label-prefix-', null],
    ['uri', 'http://example.com', null],
    ['uuid', '123e4567-e89b-12d3-a456-426614174000', null],
    ['byte', 'aGVsbG8=', null],
    ['date', '2021-01-01', null],
    ['datetime', '2021-01-01T00:00:00Z', null],
    ['dns1123Label', 'contains a space', [LABEL_ERR]],
    ['dns1123Subdomain', 'contains a space', [SUBDOMAIN_ERR]],
    ['dns1035Label', 'contains a space', [DNS1035_ERR]],
    [
      'qualifiedName',
      'contains a space',
      [
        "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ],
    ],
    ['dns1123LabelPrefix', 'contains a space-', [LABEL_ERR]],
    ['dns1123SubdomainPrefix', 'contains a space-', [SUBDOMAIN_ERR]],
    ['dns1035LabelPrefix', 'contains a space-', [DNS1035_ERR]],
    ['dns1123Label', 'my-label-name', null],
    ['dns1035Label', 'my-label-name', null],
    ['qualifiedName', 'my.name', null],
    ['byte', 'aGVsbG8', ['invalid base64']],
    ['date', '2020-01-32', ['invalid date']],
    ['datetime', '2020-01-32T00:00:00Z', ['invalid datetime']],
    ['labelValue', 'my-cool-label-Value', null],
    [
      'labelValue',
      'my-cool-label-Value!!\n\n!!!',
      [
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      ],
    ],
    ['uri', 'example.com/path', ['parse "example.com/path": invalid URI for request']],
    ['uuid', 'not-a-uuid', ['does not match the UUID format']],
  ])('format.%s().validate(%j)', (f, s, want) => {
    expect(check(f, s)).toEqual(want)
  })

  it('format.named: a known name is some format equal to its constant; an unknown one is none', () => {
    const names = [
      'dns1123Label',
      'dns1123Subdomain',
      'dns1035Label',
      'qualifiedName',
      'dns1123LabelPrefix',
      'dns1123SubdomainPrefix',
      'dns1035LabelPrefix',
      'labelValue',
      'uri',
      'uuid',
      'byte',
      'date',
      'datetime',
    ]
    for (const name of names) {
      expect(evaluate(`format.named("${name}").hasValue()`)).toBe(true)
      expect(evaluate(`format.named("${name}").value() == format.${name}()`)).toBe(true)
      for (const other of names)
        if (other !== name) expect(evaluate(`format.${name}() == format.${other}()`)).toBe(false)
    }
    expect(evaluate('format.named("unknown").hasValue()')).toBe(false)
  })
})

const V = 'spec.validation.openAPIV3Schema'
const schemaWith = (rules: object[]): JSONSchemaProps => ({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        address: { type: 'string', maxLength: 64 },
        subnet: { type: 'string', maxLength: 64 },
        name: { type: 'string', maxLength: 63 },
        version: { type: 'string', maxLength: 32 },
      },
      'x-kubernetes-validations': rules as JSONSchemaProps['x-kubernetes-validations'],
    },
  },
})

describe('the libraries in CRD rules', () => {
  it('rules using ip, cidr and format compile at CRD time and run on writes', () => {
    const rules = [
      { rule: 'isIP(self.address) && ip(self.address).family() == 4', message: 'an IPv4 address' },
      { rule: 'cidr(self.subnet).containsIP(self.address)', message: 'in the subnet' },
      {
        rule: '!format.dns1123Label().validate(self.name).hasValue()',
        messageExpression: "format.dns1123Label().validate(self.name).value().join(', ')",
      },
      { rule: 'ip.isCanonical(self.address)', message: 'canonical' },
    ]
    const s = schemaWith(rules)
    expect(checkRules(newStructural(s), new FieldPath(V)).map(renderFieldError)).toEqual([])
    const validate = (spec: object) => ruleValidator(newStructural(s))!.validate({ spec }, null).map(renderFieldError)
    expect(validate({ address: '10.0.0.5', subnet: '10.0.0.0/24', name: 'web' })).toEqual([])
    expect(validate({ address: '10.0.1.5', subnet: '10.0.0.0/24', name: 'Web' })).toEqual([
      'spec: Invalid value: "object": in the subnet',
      `spec: Invalid value: "object": ${LABEL_ERR}`,
    ])
    expect(validate({ address: '10.0.0.05', subnet: '10.0.0.0/24', name: 'web' })).toEqual([
      'spec: Invalid value: "object": an IPv4 address',
      'spec: Invalid value: "object": IP Address "10.0.0.05" parse error during conversion from string: ParseAddr("10.0.0.05"): IPv4 field has octet with leading zero evaluating rule: in the subnet',
      'spec: Invalid value: "object": IP Address "10.0.0.05" parse error during conversion from string: ParseAddr("10.0.0.05"): IPv4 field has octet with leading zero evaluating rule: canonical',
    ])
  })

  it("semver is not in 1.33's environment for new rules (its compatibility version is 1.32)", () => {
    const s = schemaWith([{ rule: "semver(self.version).isGreaterThan(semver('1.0.0'))" }])
    const [err] = checkRules(newStructural(s), new FieldPath(V)).map(renderFieldError)
    expect(err).toContain(
      "compilation failed: ERROR: <input>:1:7: undeclared reference to 'semver' (in container '')\n | semver(self.version).isGreaterThan(semver('1.0.0'))\n | ......^",
    )
  })
})
