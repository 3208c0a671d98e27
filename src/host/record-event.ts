// How a controller records an Event: created through its host's create verb like any client's, under the
// controller's component name as field manager (kube's event recorders write through the API with their user agent),
// after kube's event correlation (src/registry/event-correlator.ts): a repeat updates the count of the Event it
// made, similar events are aggregated, and a source's burst of events about one object is cut off.
import { EventCorrelator } from '../registry/event-correlator'
import type { EventSpec } from '../registry/event-recorder'
import { eventAbout } from '../registry/event-recorder'
import type { KubeObject } from '../schema/meta'
import type { ControllerHost } from './controller'

/** One correlator per host, as each kube component keeps one in its recorder. */
const correlators = new WeakMap<ControllerHost, EventCorrelator>()

export async function recordEvent(host: ControllerHost, about: KubeObject, spec: EventSpec): Promise<void> {
  let correlator = correlators.get(host)
  if (!correlator) correlators.set(host, (correlator = new EventCorrelator()))
  const now = new Date()
  const result = correlator.correlate(eventAbout(about, spec, now), now.getTime())
  if (result.skip) return
  const opts = { fieldManager: spec.component }
  if ('update' in result) {
    const { name, count, lastTimestamp, message } = result.update
    const r = await host.update('events', name, (e) => ({ ...e, count, lastTimestamp, message }) as KubeObject, opts)
    if (r.ok) {
      if (r.value) correlator.stored(r.value.object)
      return
    }
    // The Event it would update is gone (its time to live ran out): kube's recorder makes it again.
    if (r.status.code !== 404) return report(spec, r.status.message)
  }
  const r = await host.create('events', result.create, opts)
  if (r.ok) correlator.stored(r.value.object)
  // An event that cannot be recorded (its namespace is going away) is dropped, as kube's recorder drops it.
  else if (r.status.code !== 403 && r.status.code !== 404 && r.status.code !== 409) report(spec, r.status.message)
}

function report(spec: EventSpec, message: string | undefined) {
  console.error(`recording event ${spec.reason} failed`, message)
}
