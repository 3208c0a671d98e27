// A namespace object's controllers, built and wired to one another: the scheduler and the simulated kubelet share the
// pod address book, the workload controllers share the create retries, and those that create objects stop while the
// namespace terminates. The object keeps the few it calls on directly (phase changes, scheduling retries, node and
// owner changes from the cluster object).
import { clusterApi, type ClusterApi, type NamespacePhase } from '../cluster/cluster-api'
import type { Controller } from '../host/controller'
import { CreateRetries } from './create-retries'
import { CronJobController } from './cronjob-controller'
import { DaemonSetController } from './daemonset-controller'
import { DeploymentController } from './deployment-controller'
import { DisruptionController } from './disruption-controller'
import { endpointSliceController } from './endpointslice-controller'
import { endpointsController } from './endpoints-controller'
import { GarbageCollector } from './garbage-collector'
import { HorizontalPodAutoscalerController } from './hpa-controller'
import { JobController } from './job-controller'
import { KubeletController } from './kubelet-controller'
import { KubernetesServiceController } from './kubernetes-service-controller'
import type { LogFollowers } from './log-followers'
import { PodAddressBook } from './pod-address-book'
import type { PodLogStore } from './pod-log-store'
import type { QuotaLedger } from './quota-ledger'
import { replicaSetKind, replicationControllerKind } from './replica-kinds'
import { ReplicaManager } from './replica-manager'
import { ResourceQuotaController } from './resource-quota-controller'
import { RootCAPublisher } from './root-ca-publisher'
import { SchedulerController } from './scheduler-controller'
import { ServiceAccountController } from './service-account-controller'
import { StatefulSetController } from './statefulset-controller'
import { TtlAfterFinishedController } from './ttl-after-finished-controller'

/** What the controllers reach outside themselves. */
interface NamespaceControllerDeps {
  cluster: () => ClusterApi
  /** The namespace's phase now (its policy's). */
  phase: () => NamespacePhase | undefined
  quotas: QuotaLedger
  logs: PodLogStore
  followers: LogFollowers
}

interface NamespaceControllers {
  /** In the order they see each commit. */
  controllers: Controller[]
  scheduler: SchedulerController
  daemonSets: DaemonSetController
  serviceAccounts: ServiceAccountController
  rootCA: RootCAPublisher
  gc: GarbageCollector
  /** Only in `default`: the `kubernetes` service and its endpoints. */
  kubernetesService: KubernetesServiceController | null
}

export function namespaceControllers(env: Env, scope: string, deps: NamespaceControllerDeps): NamespaceControllers {
  const { cluster, logs, followers } = deps
  const addresses = new PodAddressBook()
  const scheduler = new SchedulerController(cluster, addresses)
  const kubernetesService = scope === 'default' ? new KubernetesServiceController(env) : null
  const kubelet = new KubeletController({
    cluster,
    addresses,
    startDelayMs: Number(env.KUBELET_START_DELAY_MS ?? '0'),
    stopDelayMs: Number(env.KUBELET_STOP_DELAY_MS ?? '0'),
    logs,
    onLog: (uid, container, lines) => followers.send(uid, container, lines),
    onPodGone: (uid) => followers.end(uid),
    onRunEnded: (uid, container) => followers.endContainer(uid, container),
  })
  // A terminating namespace gets no new pods from its replication controllers and replica sets.
  const canCreate = () => deps.phase() === 'Active'
  // The owners whose creates were refused, retried after kube's backoff or when something could unblock them.
  const retries = new CreateRetries()
  const daemonSets = new DaemonSetController({ cluster, canCreate, retries })
  const serviceAccounts = new ServiceAccountController(canCreate)
  // The cluster's root CA (a secret: the generated Env type does not list it, src/env-secrets.d.ts).
  const rootCA = new RootCAPublisher((env as { KUBEFLARE_ROOT_CA?: string }).KUBEFLARE_ROOT_CA ?? '', canCreate)
  // Cluster-scoped owners of objects here are asked of the cluster object (src/namespace/gc-cluster-owners.ts).
  const gc = new GarbageCollector({ cluster: clusterApi(env) })
  const controllers: Controller[] = [
    scheduler,
    kubelet,
    gc,
    endpointsController,
    endpointSliceController,
    new ReplicaManager(replicationControllerKind, { canCreate, retries }),
    new ReplicaManager(replicaSetKind, { canCreate, retries }),
    new DeploymentController({ retries }),
    new JobController({ canCreate, retries }),
    new TtlAfterFinishedController(),
    new CronJobController({ retries }),
    serviceAccounts,
    rootCA,
    new DisruptionController(),
    new HorizontalPodAutoscalerController(),
    daemonSets,
    new StatefulSetController({ canCreate, retries }),
    new ResourceQuotaController(deps.quotas),
    retries,
  ]
  if (kubernetesService) controllers.push(kubernetesService)
  return { controllers, scheduler, daemonSets, serviceAccounts, rootCA, gc, kubernetesService }
}
