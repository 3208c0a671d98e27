// The metric families /metrics exposes: kube-apiserver's (k8s.io/apiserver pkg/endpoints/metrics/metrics.go,
// pkg/storage/etcd3/metrics, pkg/util/flowcontrol/metrics, at release-1.33) with their names, help texts, label sets
// and buckets, and kubeflare's own. Recorders and the exposition both read them from here.

type MetricType = 'counter' | 'gauge' | 'histogram'

export interface MetricFamily {
  name: string
  type: MetricType
  /** The HELP text, with kube's stability prefix (`[STABLE] `, `[BETA] `, `[ALPHA] `) where kube writes one. */
  help: string
  /** Label names, in the order recorders give their values. */
  labels: readonly string[]
  /** Upper bounds of a histogram's buckets (+Inf is implied). */
  buckets?: readonly number[]
}

/** kube's request latency buckets (the SLO buckets of apiserver_request_duration_seconds). */
const REQUEST_BUCKETS = [
  0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60,
]

const REQUEST_LABELS = ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'] as const

export const requestTotal: MetricFamily = {
  name: 'apiserver_request_total',
  type: 'counter',
  help: '[STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
  labels: [...REQUEST_LABELS, 'code'],
}

export const requestDuration: MetricFamily = {
  name: 'apiserver_request_duration_seconds',
  type: 'histogram',
  help: '[STABLE] Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
  labels: REQUEST_LABELS,
  buckets: REQUEST_BUCKETS,
}

export const longRunningRequests: MetricFamily = {
  name: 'apiserver_longrunning_requests',
  type: 'gauge',
  help: '[STABLE] Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
  labels: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'],
}

/** Removed from kube after 1.22 (its labels are 1.22's); kept because dashboards still chart it. */
export const registeredWatchers: MetricFamily = {
  name: 'apiserver_registered_watchers',
  type: 'gauge',
  help: '[ALPHA] Number of currently registered watchers for a given resources',
  labels: ['group', 'version', 'kind'],
}

export const storageObjects: MetricFamily = {
  name: 'apiserver_storage_objects',
  type: 'gauge',
  help: '[STABLE] Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.',
  labels: ['resource'],
}

export const currentInflightRequests: MetricFamily = {
  name: 'apiserver_current_inflight_requests',
  type: 'gauge',
  help: '[STABLE] Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
  labels: ['request_kind'],
}

export const flowcontrolRejected: MetricFamily = {
  name: 'apiserver_flowcontrol_rejected_requests_total',
  type: 'counter',
  help: '[BETA] Number of requests rejected by API Priority and Fairness subsystem',
  labels: ['priority_level', 'flow_schema', 'reason'],
}

export const commitBatchSize: MetricFamily = {
  name: 'kubeflare_d1_commit_batch_size',
  type: 'histogram',
  help: 'Number of changes committed to D1 in one group commit, by the Durable Object class that committed them.',
  labels: ['class'],
  buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
}

export const durableObjectWakes: MetricFamily = {
  name: 'kubeflare_durable_object_wakes_total',
  type: 'counter',
  help: 'Number of times a Durable Object was constructed (first start, or waking after hibernation or eviction), by class.',
  labels: ['class'],
}

export const watchEventDelivery: MetricFamily = {
  name: 'kubeflare_watch_event_delivery_seconds',
  type: 'histogram',
  help: "Seconds from the start of the D1 commit that carried a change to its watch event's hand-off to a watcher's socket, by the Durable Object class that delivered it.",
  labels: ['class'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
}

export const FAMILIES: readonly MetricFamily[] = [
  requestTotal,
  requestDuration,
  longRunningRequests,
  registeredWatchers,
  storageObjects,
  currentInflightRequests,
  flowcontrolRejected,
  commitBatchSize,
  durableObjectWakes,
  watchEventDelivery,
]
