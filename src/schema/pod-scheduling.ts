// Scheduling (node selection, affinity, tolerations, topology spread, gates) and the small pod-level settings kept
// beside it upstream: host aliases, DNS config, resource claims, OS.
import { z } from 'zod'
import { int32, int64 } from './meta'
import { atomic, atomicMap } from './schema-helpers'
import { LabelSelector, NodeSelectorOperator, TolerationOperator } from './pod-common'

// ---------------------------------------------------------------------------------------------------------------
// Scheduling

export const NodeSelectorRequirement = z
  .strictObject({
    key: z.string().describe('Node label key or field name'),
    operator: NodeSelectorOperator.describe("How the node's value relates to the values"),
    values: z
      .array(z.string())
      .optional()
      .describe('Values to compare with; one integer for Gt and Lt, none for Exists')
      .meta(atomic),
  })
  .describe('One test on a node label or field')

export const NodeSelectorTerm = z
  .strictObject({
    matchExpressions: z.array(NodeSelectorRequirement).optional().describe('Tests on node labels').meta(atomic),
    matchFields: z.array(NodeSelectorRequirement).optional().describe('Tests on node fields').meta(atomic),
  })
  .describe('Node tests that must all pass')
  .meta(atomicMap)

export const NodeSelector = z
  .strictObject({
    nodeSelectorTerms: z.array(NodeSelectorTerm).describe('Terms of which at least one must match').meta(atomic),
  })
  .describe('Matches nodes satisfying any of its terms')
  .meta(atomicMap)

export const PreferredSchedulingTerm = z
  .strictObject({
    weight: int32.describe('Weight added to a node that matches, 1 to 100'),
    preference: NodeSelectorTerm.describe('Node tests for this preference'),
  })
  .describe('A weighted node preference')

export const NodeAffinity = z
  .strictObject({
    requiredDuringSchedulingIgnoredDuringExecution: NodeSelector.optional().describe(
      'Nodes the pod may be scheduled on',
    ),
    preferredDuringSchedulingIgnoredDuringExecution: z
      .array(PreferredSchedulingTerm)
      .optional()
      .describe('Weighted node preferences')
      .meta(atomic),
  })
  .describe('Rules about which nodes the pod runs on')

export const PodAffinityTerm = z
  .strictObject({
    labelSelector: LabelSelector.optional().describe('Pods this term refers to'),
    namespaces: z
      .array(z.string())
      .optional()
      .describe('Namespaces searched for those pods, in addition to namespaceSelector')
      .meta(atomic),
    topologyKey: z.string().describe('Node label whose value defines co-location'),
    namespaceSelector: LabelSelector.optional().describe('Namespaces searched, chosen by label'),
    matchLabelKeys: z
      .array(z.string())
      .optional()
      .describe('Own label keys whose values are added to the selector as In terms')
      .meta(atomic),
    mismatchLabelKeys: z
      .array(z.string())
      .optional()
      .describe('Own label keys whose values are added to the selector as NotIn terms')
      .meta(atomic),
  })
  .describe('Pods to be co-located with (or kept away from) within a topology domain')

export const WeightedPodAffinityTerm = z
  .strictObject({
    weight: int32.describe('Weight added to a node that satisfies the term, 1 to 100'),
    podAffinityTerm: PodAffinityTerm.describe('The term'),
  })
  .describe('A weighted pod affinity term')

export const PodAffinity = z
  .strictObject({
    requiredDuringSchedulingIgnoredDuringExecution: z
      .array(PodAffinityTerm)
      .optional()
      .describe('Terms that must hold to schedule the pod')
      .meta(atomic),
    preferredDuringSchedulingIgnoredDuringExecution: z
      .array(WeightedPodAffinityTerm)
      .optional()
      .describe('Terms the scheduler tries to satisfy')
      .meta(atomic),
  })
  .describe('Rules to place the pod near other pods')

export const PodAntiAffinity = z
  .strictObject({
    requiredDuringSchedulingIgnoredDuringExecution: z
      .array(PodAffinityTerm)
      .optional()
      .describe('Terms that must not hold to schedule the pod')
      .meta(atomic),
    preferredDuringSchedulingIgnoredDuringExecution: z
      .array(WeightedPodAffinityTerm)
      .optional()
      .describe('Terms the scheduler tries to avoid')
      .meta(atomic),
  })
  .describe('Rules to keep the pod away from other pods')

export const Affinity = z
  .strictObject({
    nodeAffinity: NodeAffinity.optional().describe('Node placement rules'),
    podAffinity: PodAffinity.optional().describe('Co-location rules'),
    podAntiAffinity: PodAntiAffinity.optional().describe('Separation rules'),
  })
  .describe('Scheduling constraints of the pod')

export const Toleration = z
  .strictObject({
    key: z.string().optional().describe('Taint key tolerated; empty with Exists matches every taint'),
    operator: TolerationOperator.optional().describe('How the value is compared; Equal by default'),
    value: z.string().optional().describe('Taint value tolerated'),
    // Unlike a taint's effect, a toleration's may be empty, which kube documents as matching every effect.
    effect: z
      .enum(['', 'NoSchedule', 'PreferNoSchedule', 'NoExecute'])
      .optional()
      .describe('Taint effect tolerated; empty matches every effect'),
    tolerationSeconds: int64.optional().describe('How long a NoExecute taint is tolerated before eviction'),
  })
  .describe('Lets the pod schedule or keep running despite matching taints')
export type Toleration = z.infer<typeof Toleration>

export const TopologySpreadConstraint = z
  .strictObject({
    maxSkew: int32.describe('Largest allowed difference in matching pods between domains'),
    topologyKey: z.string().describe('Node label whose values are the domains'),
    whenUnsatisfiable: z
      .enum(['DoNotSchedule', 'ScheduleAnyway'])
      .describe('Whether to refuse or merely avoid an unbalanced placement'),
    labelSelector: LabelSelector.optional().describe('Pods counted in each domain'),
    minDomains: int32.optional().describe('Fewest eligible domains assumed to exist'),
    nodeAffinityPolicy: z
      .enum(['Honor', 'Ignore'])
      .optional()
      .describe('Whether node affinity limits the domains counted'),
    nodeTaintsPolicy: z.enum(['Honor', 'Ignore']).optional().describe('Whether taints limit the domains counted'),
    matchLabelKeys: z
      .array(z.string())
      .optional()
      .describe('Own label keys whose values narrow the counted pods')
      .meta(atomic),
  })
  .describe('How matching pods are spread across topology domains')

export const HostAlias = z
  .strictObject({
    ip: z.string().describe('IP address of the hosts file entry'),
    hostnames: z.array(z.string()).optional().describe('Names for that address').meta(atomic),
  })
  .describe("An entry added to the pod's hosts file")

export const PodDNSConfigOption = z
  .strictObject({
    name: z.string().optional().describe('Resolver option name'),
    value: z.string().optional().describe('Resolver option value'),
  })
  .describe('A resolver option')

export const PodDNSConfig = z
  .strictObject({
    nameservers: z.array(z.string()).optional().describe('Extra name server addresses').meta(atomic),
    searches: z.array(z.string()).optional().describe('Extra search domains').meta(atomic),
    options: z.array(PodDNSConfigOption).optional().describe('Extra resolver options').meta(atomic),
  })
  .describe('DNS settings merged into those the DNS policy generates')

export const PodReadinessGate = z
  .strictObject({
    conditionType: z.string().describe('Pod condition that must be True for the pod to be ready'),
  })
  .describe('An extra condition required for readiness')

export const PodSchedulingGate = z
  .strictObject({
    name: z.string().describe('Name of the gate'),
  })
  .describe('A gate that holds the pod back from scheduling until removed')

export const PodResourceClaim = z
  .strictObject({
    name: z.string().describe('Name containers use to refer to the claim'),
    resourceClaimName: z.string().optional().describe("Existing ResourceClaim in the pod's namespace"),
    resourceClaimTemplateName: z.string().optional().describe('ResourceClaimTemplate to create a per-pod claim from'),
  })
  .describe('A dynamically allocated resource the pod needs')

export const PodOS = z
  .strictObject({
    name: z.string().describe('Operating system of the containers: linux or windows'),
  })
  .describe('Operating system the pod targets')

export const PodSchedulingGroup = z
  .strictObject({
    podGroupName: z.string().optional().describe('PodGroup object that represents this group at runtime'),
  })
  .describe('Group the pod is scheduled with')
