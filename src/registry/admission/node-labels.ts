// Which Node labels a node may set on itself under NodeRestriction (noderestriction getForbiddenLabels, and
// k8s.io/kubelet/pkg/apis IsKubeletLabel): none under node-restriction.kubernetes.io, and of the kubernetes.io and
// k8s.io namespaces only the labels kubelets set (hostname, zone, region, instance type, os, arch) and those under
// kubelet.kubernetes.io and node.kubernetes.io.
import { compareUtf8 } from '../go-strings'

const NODE_RESTRICTION_NAMESPACE = 'node-restriction.kubernetes.io'

/** kubeletLabels. */
const KUBELET_LABELS = new Set([
  'kubernetes.io/hostname',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
  'beta.kubernetes.io/instance-type',
  'node.kubernetes.io/instance-type',
  'kubernetes.io/os',
  'kubernetes.io/arch',
  'beta.kubernetes.io/os',
  'beta.kubernetes.io/arch',
])

/** kubeletLabelNamespaces. */
const KUBELET_LABEL_NAMESPACES = ['kubelet.kubernetes.io', 'node.kubernetes.io']

/** The part of a key before its first slash ('' without one). */
function labelNamespace(key: string): string {
  const slash = key.indexOf('/')
  return slash < 0 ? '' : key.slice(0, slash)
}

const within = (namespace: string, domain: string) => namespace === domain || namespace.endsWith(`.${domain}`)

const isKubernetesLabel = (key: string) => {
  const ns = labelNamespace(key)
  return within(ns, 'kubernetes.io') || within(ns, 'k8s.io')
}

/** IsKubeletLabel: a label kubelets may set on their own Node. */
export function isKubeletLabel(key: string): boolean {
  if (KUBELET_LABELS.has(key)) return true
  const ns = labelNamespace(key)
  return KUBELET_LABEL_NAMESPACES.some((allowed) => within(ns, allowed))
}

/** getModifiedLabels: keys added, removed or changed between two label maps. */
export function modifiedLabels(a: Record<string, string> = {}, b: Record<string, string> = {}): string[] {
  const keys = new Set<string>()
  const same = (m: Record<string, string>, k: string, v: string) => Object.hasOwn(m, k) && m[k] === v
  for (const [k, v] of Object.entries(a)) if (!same(b, k, v)) keys.add(k)
  for (const [k, v] of Object.entries(b)) if (!same(a, k, v)) keys.add(k)
  return [...keys]
}

/** getForbiddenLabels: the keys among `modified` a node may not touch, sorted (sets.String.List()). */
export function forbiddenLabels(modified: readonly string[]): string[] {
  return modified
    .filter(
      (key) =>
        within(labelNamespace(key), NODE_RESTRICTION_NAMESPACE) || (isKubernetesLabel(key) && !isKubeletLabel(key)),
    )
    .sort(compareUtf8)
}
