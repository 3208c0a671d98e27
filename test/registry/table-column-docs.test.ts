// Built-in kinds' Table columns carry kube's descriptions: the whole swagger text of the field kube's printers name
// (metav1.ObjectMeta{}.SwaggerDoc()["name"], apiv1.PodStatus{}.SwaggerDoc()["podIP"]...), or printers.go's own
// sentence; never a shortened one. Expected texts are k8s.io/api and apimachinery release-1.33's
// types_swagger_doc_generated.go, as pkg/printers/internalversion/printers.go picks them.
import { describe, expect, it } from 'vitest'
import { kinds } from '../../src/registry/resources'
import { req } from '../helpers'

const NAME =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names'
const AGE =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata'

/** Every column of these kinds, as kube's printers describe it. */
const KUBE: Record<string, Record<string, string>> = {
  Pod: {
    Name: NAME,
    Ready: 'The aggregate readiness state of this pod for accepting traffic.',
    Status: 'The aggregate status of the containers in this pod.',
    Restarts:
      'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
    Age: AGE,
    IP: 'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.',
    Node: 'NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for this node becomes responsible for the lifecycle of this pod. This field should not be used to express a desire for the pod to be scheduled on a specific node. https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename',
    'Nominated Node':
      'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.',
    'Readiness Gates':
      'If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates',
  },
  Deployment: {
    Name: NAME,
    Ready: 'Number of the pod with ready state',
    'Up-to-date':
      'Total number of non-terminating pods targeted by this deployment that have the desired template spec.',
    Available:
      'Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by this deployment.',
    Age: AGE,
    Containers: 'Names of each container in the template.',
    Images: 'Images referenced by each container in the template.',
    Selector:
      'Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.',
  },
  Service: {
    Name: NAME,
    Type: 'type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer. "ClusterIP" allocates a cluster-internal IP address for load-balancing to endpoints. Endpoints are determined by the selector or if that is not specified, by manual construction of an Endpoints object or EndpointSlice objects. If clusterIP is "None", no virtual IP is allocated and the endpoints are published as a set of endpoints rather than a virtual IP. "NodePort" builds on ClusterIP and allocates a port on every node which routes to the same endpoints as the clusterIP. "LoadBalancer" builds on NodePort and creates an external load-balancer (if supported in the current cloud) which routes to the same endpoints as the clusterIP. "ExternalName" aliases this service to the specified externalName. Several other fields do not apply to ExternalName services. More info: https://kubernetes.io/docs/concepts/services-networking/service/#publishing-services-service-types',
    'Cluster-IP':
      'clusterIP is the IP address of the service and is usually assigned randomly. If an address is specified manually, is in-range (as per system configuration), and is not in use, it will be allocated to the service; otherwise creation of the service will fail. This field may not be changed through updates unless the type field is also being changed to ExternalName (which requires this field to be blank) or the type field is being changed from ExternalName (in which case this field may optionally be specified, as describe above).  Valid values are "None", empty string (""), or a valid IP address. Setting this to "None" makes a "headless service" (no virtual IP), which is useful when direct endpoint connections are preferred and proxying is not required.  Only applies to types ClusterIP, NodePort, and LoadBalancer. If this field is specified when creating a Service of type ExternalName, creation will fail. This field will be wiped when updating a Service to type ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies',
    'External-IP':
      'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.  These IPs are not managed by Kubernetes.  The user is responsible for ensuring that traffic arrives at a node with this IP.  A common example is external load-balancers that are not part of the Kubernetes system.',
    'Port(s)':
      'The list of ports that are exposed by this service. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies',
    Age: AGE,
    Selector:
      'Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which Kubernetes will not modify. Only applies to types ClusterIP, NodePort, and LoadBalancer. Ignored if type is ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/',
  },
  Event: {
    'Last Seen': 'The time at which the most recent occurrence of this event was recorded.',
    Type: 'Type of this event (Normal, Warning), new types could be added in the future',
    Reason:
      "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
    Object: 'The object that this event is about.',
    Subobject:
      'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: "spec.containers{name}" (where "name" refers to the name of the container that triggered the event) or if no container name is specified "spec.containers[2]" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.',
    Source: 'The component reporting this event. Should be a short machine understandable string.',
    Message: 'A human-readable description of the status of this operation.',
    'First Seen': 'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)',
    Count: 'The number of times this event has occurred.',
    Name: NAME,
  },
  Node: {
    Name: NAME,
    Status: 'The status of the node',
    Roles: 'The roles of the node',
    Age: AGE,
    Version: 'Kubelet Version reported by the node.',
    'Internal-IP':
      "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).",
    'External-IP':
      "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).",
    'OS-Image': 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).',
    'Kernel-Version': "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).",
    'Container-Runtime':
      'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).',
  },
  CronJob: {
    Name: NAME,
    Schedule: 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.',
    Timezone:
      'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process. The set of valid time zone names and the time zone offset is loaded from the system-wide time zone database by the API server during CronJob validation and the controller manager during execution. If no system-wide time zone database can be found a bundled version of the database is used instead. If the time zone name becomes invalid during the lifetime of a CronJob or due to a change in host configuration, the controller will stop creating new new Jobs and will create a system event with the reason UnknownTimeZone. More information can be found in https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones',
    Suspend:
      'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.',
    Active: 'A list of pointers to currently running jobs.',
    'Last Schedule': 'Information when was the last time the job was successfully scheduled.',
    Age: AGE,
    Containers: 'Names of each container in the template.',
    Images: 'Images referenced by each container in the template.',
    Selector:
      'A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
  },
}

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io'

describe('Table column descriptions of built-in kinds', () => {
  it('are the whole swagger docs kube prints, column by column', () => {
    for (const [kind, columns] of Object.entries(KUBE)) {
      const def = kinds.all().find((d) => d.kind === kind && !d.unstructured)!
      expect(Object.fromEntries(def.strategy.table.columns.map((c) => [c.name, c.description])), kind).toEqual(columns)
    }
  })

  it("give every kind with a Name or Age column ObjectMeta's whole name and creationTimestamp docs", () => {
    for (const def of kinds.all()) {
      if (def.unstructured) continue
      for (const c of def.strategy.table.columns) {
        if (c.name === 'Name' && c.format === 'name') expect(c.description, def.kind).toBe(NAME)
        if (c.name === 'Age' || c.name === 'Created At') expect(c.description, def.kind).toBe(AGE)
      }
    }
  })

  it('are served as kube sends them (GET pods as a Table)', async () => {
    const r = await req('GET', '/api/v1/namespaces/default/pods', undefined, { accept: TABLE })
    expect(r.status).toBe(200)
    const defs = (r.json as { columnDefinitions: { name: string; description: string }[] }).columnDefinitions
    expect(Object.fromEntries(defs.map((c) => [c.name, c.description]))).toEqual(KUBE.Pod)
    expect(r.text).toContain(`"description":${JSON.stringify(NAME)}`)
  })
})
