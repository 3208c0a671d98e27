// rbac.authorization.k8s.io/v1: Role, ClusterRole, RoleBinding, ClusterRoleBinding and the parts they share
// (PolicyRule, AggregationRule, Subject, RoleRef), fields in the order of k8s.io/api rbac/v1/types.go (release-1.33),
// list and struct metadata from its +listType/+structType tags.
import { z } from 'zod'
import { ObjectMeta } from './meta'
import { LabelSelector } from './pod-common'
import { atomic, atomicMap } from './schema-helpers'

const GROUP = 'rbac.authorization.k8s.io'
const gvk = (kind: string) => ({ 'x-kubernetes-group-version-kind': [{ group: GROUP, version: 'v1', kind }] })

const strings = () => z.array(z.string())

export const PolicyRule = z
  .strictObject({
    verbs: strings().describe("Verbs that apply to all the resources of this rule; '*' means all verbs").meta(atomic),
    apiGroups: strings()
      .optional()
      .describe(`API groups of the resources: "" is the core group, '*' every group`)
      .meta(atomic),
    resources: strings()
      .optional()
      .describe("Resources the rule applies to ('*' all, 'res/sub' and '*/sub' subresources)")
      .meta(atomic),
    resourceNames: strings().optional().describe('Names the rule is limited to; empty means every name').meta(atomic),
    nonResourceURLs: strings()
      .optional()
      .describe(
        "Non-resource URL paths the rule applies to; a final '*' matches by prefix. Only for ClusterRoles bound by a " +
          'ClusterRoleBinding, and never together with resources',
      )
      .meta(atomic),
  })
  .describe('What a role allows, without saying to whom or in which namespace')

export const AggregationRule = z
  .strictObject({
    clusterRoleSelectors: z
      .array(LabelSelector)
      .optional()
      .describe("Selectors of the ClusterRoles whose rules become this role's rules")
      .meta(atomic),
  })
  .describe('How the rules of an aggregated ClusterRole are gathered from other ClusterRoles')

export const Subject = z
  .strictObject({
    kind: z.string().describe('User, Group or ServiceAccount'),
    apiGroup: z
      .string()
      .optional()
      .describe('API group of the subject: "" for ServiceAccount, rbac.authorization.k8s.io for User and Group'),
    name: z.string().describe('Name of the subject'),
    namespace: z
      .string()
      .optional()
      .describe("Namespace of a ServiceAccount subject; in a RoleBinding it defaults to the binding's"),
  })
  .describe('Who a binding grants its role to')
  .meta(atomicMap)

export const RoleRef = z
  .strictObject({
    apiGroup: z.string().describe('API group of the role: rbac.authorization.k8s.io'),
    kind: z.string().describe('Role or ClusterRole'),
    name: z.string().describe('Name of the role'),
  })
  .describe('The role a binding grants')
  .meta(atomicMap)

export const Role = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: Role'),
    apiVersion: z.string().optional().describe('Schema version of this object: rbac.authorization.k8s.io/v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    // No omitempty upstream: a Role without rules is written with "rules": null.
    rules: z.array(PolicyRule).nullable().optional().describe('The rules of this Role').meta(atomic),
  })
  .describe('A namespaced set of rules, granted in its namespace by RoleBindings')
  .meta(gvk('Role'))

export const ClusterRole = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: ClusterRole'),
    apiVersion: z.string().optional().describe('Schema version of this object: rbac.authorization.k8s.io/v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    rules: z.array(PolicyRule).nullable().optional().describe('The rules of this ClusterRole').meta(atomic),
    aggregationRule: AggregationRule.optional().describe(
      'When set, the rules are kept by the aggregation controller from the selected ClusterRoles',
    ),
  })
  .describe('A cluster-wide set of rules, granted by ClusterRoleBindings or, in one namespace, by RoleBindings')
  .meta(gvk('ClusterRole'))

export const RoleBinding = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: RoleBinding'),
    apiVersion: z.string().optional().describe('Schema version of this object: rbac.authorization.k8s.io/v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    subjects: z.array(Subject).optional().describe('Who the role is granted to').meta(atomic),
    roleRef: RoleRef.describe('A Role of this namespace or a ClusterRole; immutable'),
  })
  .describe('Grants a Role or ClusterRole to subjects within the namespace of the binding')
  .meta(gvk('RoleBinding'))

export const ClusterRoleBinding = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: ClusterRoleBinding'),
    apiVersion: z.string().optional().describe('Schema version of this object: rbac.authorization.k8s.io/v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    subjects: z.array(Subject).optional().describe('Who the role is granted to').meta(atomic),
    roleRef: RoleRef.describe('A ClusterRole; immutable'),
  })
  .describe('Grants a ClusterRole to subjects in every namespace and at the cluster scope')
  .meta(gvk('ClusterRoleBinding'))

export type PolicyRule = z.infer<typeof PolicyRule>
export type AggregationRule = z.infer<typeof AggregationRule>
export type Subject = z.infer<typeof Subject>
export type RoleRef = z.infer<typeof RoleRef>
export type Role = z.infer<typeof Role>
export type ClusterRole = z.infer<typeof ClusterRole>
export type RoleBinding = z.infer<typeof RoleBinding>
export type ClusterRoleBinding = z.infer<typeof ClusterRoleBinding>
