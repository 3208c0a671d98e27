// core/v1 ResourceQuota: aggregate limits on what a namespace may hold (object counts, compute and storage requests),
// enforced by the quota admission (src/registry/quota/) and kept up to date by the quota controller.
import { z } from 'zod'
import { ObjectMeta } from './meta'
import { ResourceList } from './pod-common'
import { atomic } from './schema-helpers'

export const ScopedResourceSelectorRequirement = z
  .strictObject({
    scopeName: z.string().describe('The name of the scope that the selector applies to'),
    operator: z.string().describe("Represents a scope's relationship to a set of values"),
    values: z.array(z.string()).optional().describe('An array of string values').meta(atomic),
  })
  .describe(
    'A scoped-resource selector requirement is a selector that contains values, a scope name, and an operator that relates the scope name and values',
  )

export const ScopeSelector = z
  .strictObject({
    matchExpressions: z
      .array(ScopedResourceSelectorRequirement)
      .optional()
      .describe('A list of scope selector requirements by scope of the resources')
      .meta(atomic),
  })
  .describe(
    'A scope selector represents the AND of the selectors represented by the scoped-resource selector requirements',
  )
  .meta({ 'x-kubernetes-map-type': 'atomic' })

export const ResourceQuotaSpec = z
  .strictObject({
    hard: ResourceList.optional().describe('hard is the set of desired hard limits for each named resource'),
    scopes: z
      .array(z.string())
      .optional()
      .describe('A collection of filters that must match each object tracked by a quota')
      .meta(atomic),
    scopeSelector: ScopeSelector.optional().describe(
      'scopeSelector is also a collection of filters like scopes that must match each object tracked by a quota',
    ),
  })
  .describe('ResourceQuotaSpec defines the desired hard limits to enforce for Quota')

export const ResourceQuotaStatus = z
  .strictObject({
    hard: ResourceList.optional().describe('Hard is the set of enforced hard limits for each named resource'),
    used: ResourceList.optional().describe('Used is the current observed total usage of the resource in the namespace'),
  })
  .describe('ResourceQuotaStatus defines the enforced hard limits and observed use')

export const ResourceQuota = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: ResourceQuota'),
    apiVersion: z.string().optional().describe('Schema version of this object: v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    spec: ResourceQuotaSpec.optional().describe('Spec defines the desired quota'),
    status: ResourceQuotaStatus.optional().describe('Status defines the actual enforced quota and its current usage'),
  })
  .describe('ResourceQuota sets aggregate quota restrictions enforced per namespace')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'ResourceQuota' }] })

export type ResourceQuota = z.infer<typeof ResourceQuota>
export type ScopedResourceSelectorRequirement = z.infer<typeof ScopedResourceSelectorRequirement>
