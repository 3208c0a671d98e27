// Shared pod fixtures for the pod strategy tests: kubectl's `run` body and helpers that default and validate it.
import { renderFieldError, type FieldError } from '../../../../src/registry/field-errors'
import { admitPod } from '../../../../src/registry/strategies/pod/pod-admission'
import { applyPodDefaults as schemeDefaults } from '../../../../src/registry/strategies/pod/pod-defaults'

/**
 * Scheme defaults then admission, as the store applies them to a PUT body: without the API access volume the
 * ServiceAccount admission adds only on a create (test/registry/strategies/pod/pod-admission.test.ts), so bodies compare
 * as a replace of a pod created with `automountServiceAccountToken: false` would.
 */
const applyPodDefaults = (pod: Parameters<typeof schemeDefaults>[0]) => {
  schemeDefaults(pod)
  admitPod(pod, { now: new Date(), namespace: 'default' }, pod)
}
import type { PodObject } from '../../../../src/registry/strategies/pod/pod-types'

/** What `kubectl run nginx --image=nginx` sends (after the decoder drops the nulls). */
export const KUBECTL_RUN_BODY = {
  kind: 'Pod',
  apiVersion: 'v1',
  metadata: { name: 'nginx', labels: { run: 'nginx' } },
  spec: {
    containers: [{ name: 'nginx', image: 'nginx', resources: {} }],
    restartPolicy: 'Always',
    dnsPolicy: 'ClusterFirst',
  },
  status: {},
}

/** A loosely typed body the tests mutate freely before defaulting, as a client would send it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies under test are deliberately malformed
export type Body = any

export const sparse = (): Body => structuredClone(KUBECTL_RUN_BODY)

/** The sparse pod, mutated, then defaulted as the store does before validation. */
export function defaulted(mutate: (pod: Body) => void = () => {}): PodObject {
  const pod = sparse()
  mutate(pod)
  applyPodDefaults(pod)
  return pod as PodObject
}

export const rendered = (errs: FieldError[]) => errs.map(renderFieldError)

export const LABEL = String.raw`a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`
export const SUBDOMAIN = String.raw`a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`
export const QUALIFIED_NAME_PART = String.raw`name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`
export const QUALIFIED_TOO_MANY_SLASHES = String.raw`a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`
export const LABEL_VALUE = String.raw`a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`
export const IP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'
