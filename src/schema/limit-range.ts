// core/v1 LimitRange: per-namespace defaults and bounds for the resources of containers, pods and claims, which the
// LimitRanger admission plugin applies to pods and claims (src/registry/quota/limit-ranger.ts).
import { z } from 'zod'
import { ObjectMeta } from './meta'
import { ResourceList } from './pod-common'
import { atomic } from './schema-helpers'

export const LimitRangeItem = z
  .strictObject({
    type: z.string().describe('Type of resource that this limit applies to'),
    max: ResourceList.optional().describe('Max usage constraints on this kind by resource name'),
    min: ResourceList.optional().describe('Min usage constraints on this kind by resource name'),
    default: ResourceList.optional().describe(
      'Default resource requirement limit value by resource name if resource limit is omitted',
    ),
    defaultRequest: ResourceList.optional().describe(
      'DefaultRequest is the default resource requirement request value by resource name if resource request is omitted',
    ),
    maxLimitRequestRatio: ResourceList.optional().describe(
      'MaxLimitRequestRatio if specified, the named resource must have a request and limit that are both non-zero where limit divided by request is less than or equal to the enumerated value; this represents the max burst for the named resource',
    ),
  })
  .describe('LimitRangeItem defines a min/max usage limit for any resource that matches on kind')

export const LimitRangeSpec = z
  .strictObject({
    // No omitempty upstream: a spec without limits is written with "limits": null.
    limits: z
      .array(LimitRangeItem)
      .nullable()
      .optional()
      .describe('Limits is the list of LimitRangeItem objects that are enforced')
      .meta(atomic),
  })
  .describe('LimitRangeSpec defines a min/max usage limit for resources that match on kind')

export const LimitRange = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: LimitRange'),
    apiVersion: z.string().optional().describe('Schema version of this object: v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    spec: LimitRangeSpec.optional().describe('Spec defines the limits enforced'),
  })
  .describe('LimitRange sets resource usage limits for each kind of resource in a Namespace')
  .meta({ 'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'LimitRange' }] })

export type LimitRange = z.infer<typeof LimitRange>
export type LimitRangeItem = z.infer<typeof LimitRangeItem>
