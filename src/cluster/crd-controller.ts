// kube-apiextensions' CRD controllers, run in the cluster object where CRDs live, writing through the verbs like any
// client: the naming controller (status.acceptedNames, NamesAccepted, conflicts within a group), the establishing
// controller (Established once the names are accepted), the API approval controller (KubernetesAPIApprovalPolicy-
// Conformant for *.k8s.io and *.kubernetes.io groups) and the finalizer (customresourcecleanup): a CRD being
// deleted first loses every custom resource it defines, in every namespace, then its finalizer, then itself.
import type { Controller, ControllerHost } from '../host/controller'
import { approvalCondition } from '../registry/crd/crd-approval'
import { CLEANUP_FINALIZER } from '../registry/crd/crd-strategy'
import { setCondition } from '../registry/crd/crd-conditions'
import { acceptNames, establish, isConditionTrue } from '../registry/crd/crd-naming'
import type { Crd } from '../registry/crd/json-schema'
import type { LogEntry } from '../registry/store'
import type { KubeObject } from '../schema/meta'

const CRDS = 'customresourcedefinitions'
const MANAGER = 'kube-apiserver'
/** How soon a CRD whose objects are still going (finalizers of their own) is looked at again. */
const RECHECK_MS = 1000

/** Where a CRD's custom resources are: the namespaces holding them, and deleting them there. */
export interface CustomResourceInstances {
  /** Namespaces with objects of `resource` ('' for cluster-scoped ones). */
  namespacesOf(resource: string): Promise<string[]>
  /** Deletes every object of `resource` in a namespace (its host; a graceful or finalized one may stay a while). */
  deleteAll(namespace: string, resource: string): Promise<void>
}

const asCrd = (o: KubeObject) => o as unknown as Crd
const resourceOf = (crd: Crd) => `${crd.status?.acceptedNames?.plural || crd.spec.names.plural}.${crd.spec.group}`

export class CrdController implements Controller {
  readonly name = 'customresourcedefinitions'
  private running: Promise<void> | null = null
  private again = false

  constructor(private readonly instances: CustomResourceInstances) {}

  async onCommitted(entries: readonly LogEntry[], host: ControllerHost): Promise<void> {
    if (entries.some((e) => e.resource === CRDS)) await this.resync(host)
  }

  /** One pass at a time; a pass asked for meanwhile runs once the current one ends (it sees every change). */
  resync(host: ControllerHost): Promise<void> {
    if (this.running) {
      this.again = true
      return this.running
    }
    this.running = (async () => {
      try {
        do {
          this.again = false
          await this.pass(host)
        } while (this.again)
      } finally {
        this.running = null
      }
    })()
    return this.running
  }

  private async pass(host: ControllerHost) {
    const now = () => new Date()
    for (const stored of host.all(CRDS)) {
      const name = stored.object.metadata.name ?? ''
      const crd = asCrd(stored.object)
      if (crd.metadata.deletionTimestamp) {
        if (crd.metadata.finalizers?.includes(CLEANUP_FINALIZER)) await this.finalize(host, name)
        continue
      }
      // Naming: decided against the newest CRDs of the group, so two CRDs cannot claim one name.
      await this.status(host, name, (current) =>
        acceptNames(
          current,
          host.all(CRDS).map((s) => asCrd(s.object)),
          now(),
        ),
      )
      await this.status(host, name, (current) => establish(current, now()))
      await this.status(host, name, (current) => approvalCondition(current, now()))
    }
  }

  private async status(host: ControllerHost, name: string, change: (crd: Crd) => Crd | null) {
    const r = await host.update(
      CRDS,
      name,
      (current) => {
        const next = change(asCrd(current))
        return next ? (next as unknown as KubeObject) : null
      },
      { subresource: 'status', fieldManager: MANAGER },
    )
    if (!r.ok && r.status.code !== 404) console.error(`customresourcedefinitions ${name}: ${r.status.message}`)
  }

  /** crd_finalizer.go: instances deleted (when the CRD was ever served), then the finalizer removed. */
  private async finalize(host: ControllerHost, name: string) {
    const at = () => new Date()
    await this.status(host, name, (crd) => {
      const next = structuredClone(crd)
      setCondition(
        next,
        {
          type: 'Terminating',
          status: 'True',
          reason: 'InstanceDeletionInProgress',
          message: 'CustomResource deletion is in progress',
        },
        at(),
      )
      return JSON.stringify(next.status) === JSON.stringify(crd.status) ? null : next
    })
    const crd = asCrd(host.get(CRDS, name)?.object ?? ({} as KubeObject))
    if (!crd.spec) return
    let done = { reason: 'NeverEstablished', message: 'resource was never established' }
    if (isConditionTrue(crd, 'Established')) {
      const resource = resourceOf(crd)
      try {
        for (const ns of await this.instances.namespacesOf(resource)) await this.instances.deleteAll(ns, resource)
        // Objects held by finalizers of their own keep the CRD until they go (kube waits for them too).
        if ((await this.instances.namespacesOf(resource)).length > 0) {
          await host.wakeAt(Date.now() + RECHECK_MS)
          return
        }
      } catch (e) {
        const message = `could not issue all deletes: ${e instanceof Error ? e.message : String(e)}`
        await this.status(host, name, (current) => {
          const next = structuredClone(current)
          setCondition(next, { type: 'Terminating', status: 'True', reason: 'InstanceDeletionFailed', message }, at())
          return next
        })
        await host.wakeAt(Date.now() + RECHECK_MS)
        return
      }
      done = { reason: 'InstanceDeletionCompleted', message: 'removed all instances' }
    }
    await this.status(host, name, (current) => {
      const next = structuredClone(current)
      setCondition(next, { type: 'Terminating', status: 'False', ...done }, at())
      return next
    })
    // Through the main resource: the finalizer is metadata, which status writes leave alone here.
    const r = await host.update(
      CRDS,
      name,
      (current) => {
        const finalizers = current.metadata.finalizers ?? []
        if (!finalizers.includes(CLEANUP_FINALIZER)) return null
        current.metadata.finalizers = finalizers.filter((f) => f !== CLEANUP_FINALIZER)
        return current
      },
      { fieldManager: MANAGER },
    )
    if (!r.ok && r.status.code !== 404) console.error(`customresourcedefinitions ${name}: ${r.status.message}`)
  }
}
