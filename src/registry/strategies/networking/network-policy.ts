// The NetworkPolicy strategy (namespaced): kube 1.33's defaults (TCP ports, policyTypes from the rules), its
// ValidateNetworkPolicy and ValidateNetworkPolicyUpdate (pkg/apis/networking/validation) with their messages, the
// generation kube's strategy keeps, and the `kubectl get netpol` table. Nothing enforces a policy here, as
// kube-apiserver enforces none: a network plugin would.
import type { NetworkPolicy } from '../../../schema/network-policy'
import type { ObjectMeta } from '../../../schema/meta'
import type { LabelSelector } from '../pod/pod-types'
import { deepEqual } from '../../deep-equal'
import { fieldError, type FieldError, FieldPath } from '../../field-errors'
import { goQuote } from '../../go-strings'
import { age } from '../../human-duration'
import type { Strategy } from '../../strategy'
import { cidrWarnings } from '../../validation/cidr-warnings'
import { nameIsDNSSubdomain } from '../../validation/names'
import { formatLabelSelector } from '../apps/apps-selector'
import { AGE_COLUMN, NAME_COLUMN } from '../config/data-keys'
import { isValidPortName, isValidPortNum, validateLabelSelector } from '../pod/pod-validation-formats'
import { cidrNet, validateCIDR } from '../service/ip-checks'

type NetworkPolicyObject = NetworkPolicy & { metadata: ObjectMeta }
type Spec = NonNullable<NetworkPolicy['spec']>
type Port = NonNullable<NonNullable<Spec['ingress']>[number]['ports']>[number]
type Peer = NonNullable<NonNullable<Spec['ingress']>[number]['from']>[number]

const PROTOCOLS = ['TCP', 'UDP', 'SCTP']
const POLICY_TYPES = ['Ingress', 'Egress']

/** ValidateNetworkPolicyPort. */
function validatePort(port: Port, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (port.protocol !== undefined && !PROTOCOLS.includes(port.protocol))
    errs.push(fieldError.notSupported(path.child('protocol').toString(), port.protocol, PROTOCOLS))
  const endAt = path.child('endPort').toString()
  if (port.port === undefined) {
    if (port.endPort !== undefined)
      errs.push(fieldError.invalid(endAt, port.endPort, 'may not be specified when `port` is not specified'))
  } else if (typeof port.port === 'number') {
    for (const m of isValidPortNum(port.port))
      errs.push(fieldError.invalid(path.child('port').toString(), port.port, m))
    if (port.endPort !== undefined) {
      // kube quotes the port, not the end, here.
      if (port.endPort < port.port)
        errs.push(fieldError.invalid(endAt, port.port, 'must be greater than or equal to `port`'))
      for (const m of isValidPortNum(port.endPort)) errs.push(fieldError.invalid(endAt, port.endPort, m))
    }
  } else {
    if (port.endPort !== undefined)
      errs.push(fieldError.invalid(endAt, port.endPort, 'may not be specified when `port` is non-numeric'))
    for (const m of isValidPortName(port.port))
      errs.push(fieldError.invalid(path.child('port').toString(), port.port, m))
  }
  return errs
}

/** ValidateIPBlock: a CIDR, and exceptions strictly inside it. */
function validateIPBlock(block: NonNullable<Peer['ipBlock']>, path: FieldPath): FieldError[] {
  const at = path.child('cidr').toString()
  if (!block.cidr) return [fieldError.required(at, '')]
  const errs = validateCIDR(block.cidr, at)
  const net = cidrNet(block.cidr)
  if (!net) return errs
  ;(block.except ?? []).forEach((except, i) => {
    const exceptAt = path.child('except').index(i).toString()
    errs.push(...validateCIDR(except, exceptAt))
    const inner = cidrNet(except)
    if (!inner) return
    // net.IPNet.Contains of the exception's network address, and a longer mask.
    const contains = inner.bytes.length === net.bytes.length && sameNetwork(net, inner.bytes)
    if (!contains || net.bits >= inner.bits)
      errs.push(fieldError.invalid(exceptAt, except, 'must be a strict subset of `cidr`'))
  })
  return errs
}

function sameNetwork(net: { bytes: number[]; bits: number }, ip: number[]): boolean {
  for (let i = 0; i < net.bytes.length; i++) {
    const maskBits = Math.max(0, Math.min(8, net.bits - i * 8))
    const mask = (0xff << (8 - maskBits)) & 0xff
    if ((net.bytes[i]! & mask) !== (ip[i]! & mask)) return false
  }
  return true
}

/** ValidateNetworkPolicyPeer: exactly one kind of peer, or selectors without an ipBlock. */
function validatePeer(peer: Peer, path: FieldPath, selectorErrors: SelectorCheck): FieldError[] {
  const errs: FieldError[] = []
  let peers = 0
  if (peer.podSelector) {
    peers++
    errs.push(...selectorErrors(peer.podSelector, path.child('podSelector')))
  }
  if (peer.namespaceSelector) {
    peers++
    errs.push(...selectorErrors(peer.namespaceSelector, path.child('namespaceSelector')))
  }
  if (peer.ipBlock) {
    peers++
    errs.push(...validateIPBlock(peer.ipBlock, path.child('ipBlock')))
  }
  if (peers === 0) errs.push(fieldError.required(path.toString(), 'must specify a peer'))
  else if (peers > 1 && peer.ipBlock)
    errs.push(fieldError.forbidden(path.toString(), 'may not specify both ipBlock and another peer'))
  return errs
}

type SelectorCheck = (selector: LabelSelector, path: FieldPath) => FieldError[]

/**
 * ValidateLabelSelector with kube's AllowInvalidLabelValueInSelector: on an update whose stored pod selector is
 * already invalid (ValidationOptionsForNetworking), the values of matchExpressions are not checked.
 */
function selectorCheck(allowInvalidLabelValue: boolean): SelectorCheck {
  return (selector, path) => {
    const errs = validateLabelSelector(selector, path)
    return allowInvalidLabelValue
      ? errs.filter((e) => !/\.matchExpressions\[\d+\]\.values\[\d+\]$/.test(e.field))
      : errs
  }
}

/** ValidateNetworkPolicySpec. */
function validateSpec(spec: Spec, check: SelectorCheck): FieldError[] {
  const p = new FieldPath('spec')
  const errs = check(spec.podSelector ?? {}, p.child('podSelector'))
  ;(spec.ingress ?? []).forEach((rule, i) => {
    const at = p.child('ingress').index(i)
    ;(rule.ports ?? []).forEach((port, j) => errs.push(...validatePort(port, at.child('ports').index(j))))
    ;(rule.from ?? []).forEach((peer, j) => errs.push(...validatePeer(peer, at.child('from').index(j), check)))
  })
  ;(spec.egress ?? []).forEach((rule, i) => {
    const at = p.child('egress').index(i)
    ;(rule.ports ?? []).forEach((port, j) => errs.push(...validatePort(port, at.child('ports').index(j))))
    ;(rule.to ?? []).forEach((peer, j) => errs.push(...validatePeer(peer, at.child('to').index(j), check)))
  })
  const types = spec.policyTypes ?? []
  if (types.length > POLICY_TYPES.length) {
    // field.Invalid of &spec.PolicyTypes: Go's %#v of the slice.
    errs.push({
      type: 'FieldValueInvalid',
      field: p.child('policyTypes').toString(),
      message: `Invalid value: []networking.PolicyType{${types.map((t) => goQuote(t)).join(', ')}}: may not specify more than two policyTypes`,
    })
    return errs
  }
  types.forEach((t, i) => {
    if (!POLICY_TYPES.includes(t))
      errs.push(fieldError.notSupported(p.child('policyTypes').index(i).toString(), t, POLICY_TYPES))
  })
  return errs
}

/** networkPolicyWarnings: GetWarningsForCIDR of every ipBlock's cidr and exceptions, ingress then egress. */
function policyWarnings(np: NetworkPolicyObject): string[] {
  const warnings: string[] = []
  const spec = np.spec
  const sides = [
    ['ingress', 'from', spec?.ingress?.map((r) => r.from)],
    ['egress', 'to', spec?.egress?.map((r) => r.to)],
  ] as const
  for (const [side, peersKey, rules] of sides)
    (rules ?? []).forEach((peers, i) =>
      (peers ?? []).forEach((peer, j) => {
        if (!peer.ipBlock) return
        const at = new FieldPath('spec').child(side).index(i).child(peersKey).index(j).child('ipBlock')
        warnings.push(...cidrWarnings(at.child('cidr').toString(), peer.ipBlock.cidr))
        ;(peer.ipBlock.except ?? []).forEach((e, k) =>
          warnings.push(...cidrWarnings(at.child('except').index(k).toString(), e)),
        )
      }),
    )
  return warnings
}

export const networkPolicyStrategy: Strategy<NetworkPolicyObject> = {
  validateName: nameIsDNSSubdomain,
  applyDefaults(np) {
    // SetDefaults_NetworkPolicy and SetDefaults_NetworkPolicyPort (networking/v1).
    const spec = (np.spec ??= { podSelector: {} })
    spec.podSelector ??= {}
    for (const rule of [...(spec.ingress ?? []), ...(spec.egress ?? [])])
      for (const port of rule.ports ?? []) port.protocol ??= 'TCP'
    if (!spec.policyTypes?.length) spec.policyTypes = spec.egress?.length ? ['Ingress', 'Egress'] : ['Ingress']
  },
  prepareForCreate(np) {
    np.metadata.generation = 1
  },
  validate: (np) => validateSpec(np.spec ?? { podSelector: {} }, selectorCheck(false)),
  prepareForUpdate(np, old) {
    np.metadata.generation = old.metadata.generation
    if (!deepEqual(np.spec ?? {}, old.spec ?? {})) np.metadata.generation = (old.metadata.generation ?? 0) + 1
  },
  validateUpdate(np, old) {
    const oldSelector = old.spec?.podSelector ?? {}
    const allow = validateLabelSelector(oldSelector, new FieldPath('spec.podSelector')).length > 0
    return validateSpec(np.spec ?? { podSelector: {} }, selectorCheck(allow))
  },
  // WarningsOnUpdate warns only when the generation moved (the spec changed), so a label edit repeats nothing.
  warnings: (np, old) => (old && np.metadata.generation === old.metadata.generation ? [] : policyWarnings(np)),
  selectableFields: (np) => ({
    'metadata.name': np.metadata.name ?? '',
    'metadata.namespace': np.metadata.namespace ?? '',
  }),
  fieldSelectorNames: ['metadata.name', 'metadata.namespace'],
  allowUnconditionalUpdate: true,
  table: {
    columns: [
      NAME_COLUMN,
      {
        name: 'Pod-Selector',
        type: 'string',
        format: '',
        // printers.go takes extensions/v1beta1's swagger doc of podSelector (two spaces after the sentences).
        description:
          'Selects the pods to which this NetworkPolicy object applies.  The array of ingress rules is applied to any pods selected by this field. Multiple network policies can select the same set of pods.  In this case, the ingress rules for each are combined additively. This field is NOT optional and follows standard label selector semantics. An empty podSelector matches all pods in this namespace.',
        priority: 0,
      },
      AGE_COLUMN,
    ],
    cells: (np, now) => [
      np.metadata.name,
      formatLabelSelector(np.spec?.podSelector ?? {}),
      age(np.metadata.creationTimestamp, now),
    ],
  },
}
