// authorization.k8s.io/v1: the access reviews (SubjectAccessReview, SelfSubjectAccessReview,
// LocalSubjectAccessReview) and SelfSubjectRulesReview, fields in the order of k8s.io/api authorization/v1/types.go
// (release-1.33), list tags from its +listType markers. Create-only kinds: nothing here is ever stored.
import { z } from 'zod'
import { ObjectMeta } from './meta'
import { LabelSelectorRequirement } from './pod-common'
import { atomic } from './schema-helpers'

const GROUP = 'authorization.k8s.io'
const gvk = (kind: string) => ({ 'x-kubernetes-group-version-kind': [{ group: GROUP, kind, version: 'v1' }] })
const strings = () => z.array(z.string())

/** Extra values of a user (ExtraValue is a []string of its own name upstream). */
export const ExtraValue = strings().describe('Values of one extra attribute of a user')

/** meta/v1 FieldSelectorRequirement (names.ts files it under apimachinery's package, as upstream does). */
export const FieldSelectorRequirement = z
  .strictObject({
    key: z.string().describe('Field the requirement tests'),
    operator: z.string().describe('In, NotIn, Exists or DoesNotExist'),
    values: strings().optional().describe('Values to compare with; one for In and NotIn, none otherwise').meta(atomic),
  })
  .describe('One field test in a selector')

const FieldSelectorAttributes = z
  .strictObject({
    rawSelector: z.string().optional().describe('The selector as a fieldSelector query parameter would carry it'),
    requirements: z
      .array(FieldSelectorRequirement)
      .optional()
      .describe('The selector parsed into requirements; not together with rawSelector')
      .meta(atomic),
  })
  .describe('A field selector that limits the access asked about')

export const LabelSelectorAttributes = z
  .strictObject({
    rawSelector: z.string().optional().describe('The selector as a labelSelector query parameter would carry it'),
    requirements: z
      .array(LabelSelectorRequirement)
      .optional()
      .describe('The selector parsed into requirements; not together with rawSelector')
      .meta(atomic),
  })
  .describe('A label selector that limits the access asked about')

export const ResourceAttributes = z
  .strictObject({
    namespace: z.string().optional().describe('Namespace of the action; empty means every namespace (or none)'),
    verb: z.string().optional().describe("API verb such as get, list, create; '*' means every verb"),
    group: z.string().optional().describe("API group of the resource; '*' means every group"),
    version: z.string().optional().describe("API version of the resource; '*' (or empty) means every version"),
    resource: z.string().optional().describe("Resource such as pods; '*' means every resource"),
    subresource: z.string().optional().describe('Subresource such as log; empty means none'),
    name: z.string().optional().describe('Name of the object; empty means every object'),
    fieldSelector: FieldSelectorAttributes.optional().describe('Limits the access to objects matching these fields'),
    labelSelector: LabelSelectorAttributes.optional().describe('Limits the access to objects matching these labels'),
  })
  .describe('What a resource request does, as the authorizer sees it')

export const NonResourceAttributes = z
  .strictObject({
    path: z.string().optional().describe('URL path of the request'),
    verb: z.string().optional().describe('Lowercase HTTP method of the request'),
  })
  .describe('What a non-resource request does, as the authorizer sees it')

export const SubjectAccessReviewSpec = z
  .strictObject({
    resourceAttributes: ResourceAttributes.optional().describe('The resource request to judge'),
    nonResourceAttributes: NonResourceAttributes.optional().describe('The non-resource request to judge'),
    user: z.string().optional().describe('The user asking; with no groups, a user in no group'),
    groups: strings().optional().describe('The groups of the user asking').meta(atomic),
    extra: z.record(z.string(), ExtraValue).optional().describe('The extra attributes of the user asking'),
    uid: z.string().optional().describe('The uid of the user asking'),
  })
  .describe('Who asks to do what; exactly one of resourceAttributes and nonResourceAttributes')

const SelfSubjectAccessReviewSpec = z
  .strictObject({
    resourceAttributes: ResourceAttributes.optional().describe('The resource request to judge'),
    nonResourceAttributes: NonResourceAttributes.optional().describe('The non-resource request to judge'),
  })
  .describe('What the requester asks to do; exactly one of resourceAttributes and nonResourceAttributes')

const SubjectAccessReviewStatus = z
  .strictObject({
    allowed: z.boolean().describe('Whether the action would be allowed'),
    denied: z.boolean().optional().describe('Whether an authorizer explicitly denies the action'),
    reason: z.string().optional().describe('Why the action is allowed or not'),
    evaluationError: z.string().optional().describe('What went wrong while judging; the verdict may still stand'),
  })
  .describe('The verdict of an access review')

export const SubjectAccessReview = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: SubjectAccessReview'),
    apiVersion: z.string().optional().describe('Schema version of this object: authorization.k8s.io/v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata; must be empty'),
    spec: SubjectAccessReviewSpec.describe('The user and the request to judge'),
    status: SubjectAccessReviewStatus.optional().describe('The verdict, filled in by the server'),
  })
  .describe('Asks whether a given user or group may perform an action')
  .meta(gvk('SubjectAccessReview'))

export const SelfSubjectAccessReview = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: SelfSubjectAccessReview'),
    apiVersion: z.string().optional().describe('Schema version of this object: authorization.k8s.io/v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata; must be empty'),
    spec: SelfSubjectAccessReviewSpec.describe('The request to judge'),
    status: SubjectAccessReviewStatus.optional().describe('The verdict, filled in by the server'),
  })
  .describe('Asks whether the requester may perform an action')
  .meta(gvk('SelfSubjectAccessReview'))

export const LocalSubjectAccessReview = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: LocalSubjectAccessReview'),
    apiVersion: z.string().optional().describe('Schema version of this object: authorization.k8s.io/v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata; only the namespace may be set'),
    spec: SubjectAccessReviewSpec.describe(
      'The user and the request to judge; its namespace must be the one the review is posted to',
    ),
    status: SubjectAccessReviewStatus.optional().describe('The verdict, filled in by the server'),
  })
  .describe('Asks whether a given user or group may perform an action in one namespace')
  .meta(gvk('LocalSubjectAccessReview'))

const SelfSubjectRulesReviewSpec = z
  .strictObject({
    namespace: z.string().optional().describe('Namespace whose rules are listed; required'),
  })
  .describe('Which rules to list')

export const ResourceRule = z
  .strictObject({
    verbs: strings().describe("Verbs allowed on the resources; '*' means every verb").meta(atomic),
    apiGroups: strings().optional().describe("API groups of the resources; '*' means every group").meta(atomic),
    resources: strings()
      .optional()
      .describe("Resources allowed; '*' every one, '*/sub' a subresource of all")
      .meta(atomic),
    resourceNames: strings().optional().describe('Names the rule is limited to; empty means every name').meta(atomic),
  })
  .describe('Actions the subject may perform on resources')

export const NonResourceRule = z
  .strictObject({
    verbs: strings().describe("Verbs allowed on the URLs; '*' means every verb").meta(atomic),
    nonResourceURLs: strings().optional().describe("URL paths allowed; a final '*' matches by prefix").meta(atomic),
  })
  .describe('Actions the subject may perform on non-resource URLs')

export const SubjectRulesReviewStatus = z
  .strictObject({
    resourceRules: z.array(ResourceRule).describe('What the subject may do on resources').meta(atomic),
    nonResourceRules: z.array(NonResourceRule).describe('What the subject may do on non-resource URLs').meta(atomic),
    incomplete: z.boolean().describe('Whether an authorizer could not list its rules'),
    evaluationError: z.string().optional().describe('What went wrong while listing; the lists may be incomplete'),
  })
  .describe('The rules a subject holds in a namespace')

export const SelfSubjectRulesReview = z
  .strictObject({
    kind: z.string().optional().describe('Kind of this object: SelfSubjectRulesReview'),
    apiVersion: z.string().optional().describe('Schema version of this object: authorization.k8s.io/v1'),
    metadata: ObjectMeta.optional().describe('Standard object metadata'),
    spec: SelfSubjectRulesReviewSpec.describe('The namespace to list the rules of'),
    status: SubjectRulesReviewStatus.optional().describe('The rules, filled in by the server'),
  })
  .describe('Lists what the requester may do in a namespace')
  .meta(gvk('SelfSubjectRulesReview'))

export type ResourceAttributes = z.infer<typeof ResourceAttributes>
export type NonResourceAttributes = z.infer<typeof NonResourceAttributes>
export type SubjectAccessReviewSpec = z.infer<typeof SubjectAccessReviewSpec>
