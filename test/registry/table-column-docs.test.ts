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

/** Every column of the built-in kinds with a printer, as kube's printers describe it. */
const KUBE: Record<string, Record<string, string>> = {
  ClusterRoleBinding: {
    Name: NAME,
    Role: 'RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.',
    Age: AGE,
    Users: 'Users in the clusterRoleBinding',
    Groups: 'Groups in the clusterRoleBinding',
    ServiceAccounts: 'ServiceAccounts in the clusterRoleBinding',
  },
  ConfigMap: {
    Name: NAME,
    Data: "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.",
    Age: AGE,
  },
  ControllerRevision: {
    Name: NAME,
    Controller: 'Controller of the object',
    Revision: 'revision indicates the revision of the state represented by Data.',
    Age: AGE,
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
  DaemonSet: {
    Name: NAME,
    Desired:
      'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/',
    Current:
      'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/',
    Ready:
      'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.',
    'Up-to-date': 'The total number of nodes that are running updated daemon pod',
    Available:
      'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)',
    'Node Selector':
      "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/",
    Age: AGE,
    Containers: 'Names of each container in the template.',
    Images: 'Images referenced by each container in the template.',
    Selector:
      'A label query over pods that are managed by the daemon set. Must match in order to be controlled. If empty, defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
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
  EndpointSlice: {
    Name: NAME,
    AddressType:
      'addressType specifies the type of address carried by this EndpointSlice. All addresses in this slice must be the same type. This field is immutable after creation. The following address types are currently supported: * IPv4: Represents an IPv4 Address. * IPv6: Represents an IPv6 Address. * FQDN: Represents a Fully Qualified Domain Name.',
    Ports:
      'ports specifies the list of network ports exposed by each endpoint in this slice. Each port must have a unique name. When ports is empty, it indicates that there are no defined ports. When a port is defined with a nil port value, it indicates "all ports". Each slice may include a maximum of 100 ports.',
    Endpoints:
      'endpoints is a list of unique endpoints in this slice. Each slice may include a maximum of 1000 endpoints.',
    Age: AGE,
  },
  Endpoints: {
    Name: NAME,
    Endpoints:
      'The set of all endpoints is the union of all subsets. Addresses are placed into subsets according to the IPs they share. A single address with multiple ports, some of which are ready and some of which are not (because they come from different containers) will result in the address being displayed in different subsets for the different ports. No address will appear in both Addresses and NotReadyAddresses in the same subset. Sets of addresses and ports that comprise a service.',
    Age: AGE,
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
  Ingress: {
    Name: NAME,
    Class: 'The name of the IngressClass resource that should be used for additional configuration',
    Hosts: 'Hosts that incoming requests are matched against before the ingress rule',
    Address: 'Address is a list containing ingress points for the load-balancer',
    Ports: 'Ports of TLS configurations that open',
    Age: AGE,
  },
  IngressClass: {
    Name: NAME,
    Controller: 'Controller that is responsible for handling this class',
    Parameters: 'A reference to a resource with additional parameters',
    Age: AGE,
  },
  Job: {
    Name: NAME,
    Status: 'Status of the job.',
    Completions:
      'The number of pods which reached phase Succeeded. The value increases monotonically for a given spec. However, it may decrease in reaction to scale down of elastic indexed jobs.',
    Duration: 'Time required to complete the job.',
    Age: AGE,
    Containers: 'Names of each container in the template.',
    Images: 'Images referenced by each container in the template.',
    Selector:
      'A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
  },
  Lease: {
    Name: NAME,
    Holder:
      'holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.',
    Age: AGE,
  },
  Namespace: {
    Name: NAME,
    Status: 'The status of the namespace',
    Age: AGE,
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
  PersistentVolume: {
    Name: NAME,
    Capacity:
      "capacity is the description of the persistent volume's resources and capacity. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#capacity",
    'Access Modes':
      'accessModes contains all ways the volume can be mounted. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes',
    'Reclaim Policy':
      'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim. Valid options are Retain (default for manually created PersistentVolumes), Delete (default for dynamically provisioned PersistentVolumes), and Recycle (deprecated). Recycle must be supported by the volume plugin underlying this PersistentVolume. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#reclaiming',
    Status:
      'phase indicates if a volume is available, bound to a claim, or released by a claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#phase',
    Claim:
      'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim. Expected to be non-nil when bound. claim.VolumeName is the authoritative bind between PV and PVC. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#binding',
    StorageClass: 'StorageClass of the pv',
    VolumeAttributesClass: 'VolumeAttributesClass of the pv',
    Reason:
      'reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.',
    Age: AGE,
    VolumeMode:
      'volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state. Value of Filesystem is implied when not included in spec.',
  },
  PersistentVolumeClaim: {
    Name: NAME,
    Status: 'phase represents the current phase of PersistentVolumeClaim.',
    Volume: 'volumeName is the binding reference to the PersistentVolume backing this claim.',
    Capacity: 'capacity represents the actual resources of the underlying volume.',
    'Access Modes':
      'accessModes contains the actual access modes the volume backing the PVC has. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1',
    StorageClass: 'StorageClass of the pvc',
    VolumeAttributesClass: 'VolumeAttributesClass of the pvc',
    Age: AGE,
    VolumeMode:
      'volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.',
  },
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
  PodDisruptionBudget: {
    Name: NAME,
    'Min Available': 'The minimum number of pods that must be available.',
    'Max Unavailable': 'The maximum number of pods that may be unavailable.',
    'Allowed Disruptions': 'Calculated number of pods that may be disrupted at this time.',
    Age: AGE,
  },
  ReplicaSet: {
    Name: NAME,
    Desired:
      'Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset',
    Current:
      'Replicas is the most recently observed number of non-terminating pods. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset',
    Ready: 'The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.',
    Age: AGE,
    Containers: 'Names of each container in the template.',
    Images: 'Images referenced by each container in the template.',
    Selector:
      'Selector is a label query over pods that should match the replica count. If the selector is empty, it is defaulted to the labels present on the pod template. Label keys and values that must match in order to be controlled by this replica set. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
  },
  ReplicationController: {
    Name: NAME,
    Desired:
      'Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller',
    Current:
      'Replicas is the most recently observed number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller',
    Ready: 'The number of ready replicas for this replication controller.',
    Age: AGE,
    Containers: 'Names of each container in the template.',
    Images: 'Images referenced by each container in the template.',
    Selector:
      'Selector is a label query over pods that should match the Replicas count. If Selector is empty, it is defaulted to the labels present on the Pod template. Label keys and values that must match in order to be controlled by this replication controller, if empty defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
  },
  RoleBinding: {
    Name: NAME,
    Role: 'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.',
    Age: AGE,
    Users: 'Users in the roleBinding',
    Groups: 'Groups in the roleBinding',
    ServiceAccounts: 'ServiceAccounts in the roleBinding',
  },
  Secret: {
    Name: NAME,
    Type: 'Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types',
    Data: "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4",
    Age: AGE,
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
  ServiceAccount: {
    Name: NAME,
    Secrets:
      'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use. Pods are only limited to this list if this service account has a "kubernetes.io/enforce-mountable-secrets" annotation set to "true". The "kubernetes.io/enforce-mountable-secrets" annotation is deprecated since v1.32. Prefer separate namespaces to isolate access to mounted secrets. This field should not be used to find auto-generated service account token secrets for use outside of pods. Instead, tokens can be requested directly using the TokenRequest API, or service account token secrets can be manually created. More info: https://kubernetes.io/docs/concepts/configuration/secret',
    Age: AGE,
  },
  StatefulSet: {
    Name: NAME,
    Ready: 'Number of the pod with ready state',
    Age: AGE,
    Containers: 'Names of each container in the template.',
    Images: 'Images referenced by each container in the template.',
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
