// Pod status validation (for the future /status subresource): one row per rule, exact paths and messages.
import { describe, expect, it } from 'vitest'
import { validatePodStatusUpdate } from '../../../../src/registry/strategies/pod/pod-validation-status'
import { IP, QUALIFIED_TOO_MANY_SLASHES, SUBDOMAIN, defaulted, rendered, type Body } from './pod-fixtures'

type Row = [name: string, old: (pod: Body) => void, update: (pod: Body) => void, expected: string[]]

const running = (name = 'nginx') => ({
  name,
  ready: true,
  restartCount: 0,
  image: 'nginx',
  imageID: '',
  state: { running: {} },
})
const terminated = (exitCode: number, name = 'nginx') => ({
  name,
  ready: false,
  restartCount: 0,
  image: 'nginx',
  imageID: '',
  state: { terminated: { exitCode } },
})

function table(rows: Row[]) {
  it.each(rows)('%s', (_name, old, update, expected) => {
    const base = (p: Body) => (p.status = { phase: 'Pending', qosClass: 'BestEffort' })
    const oldPod = defaulted((p) => {
      base(p)
      old(p)
    })
    const newPod = defaulted((p) => {
      base(p)
      update(p)
    })
    expect(rendered(validatePodStatusUpdate(newPod, oldPod))).toEqual(expected)
  })
}

const none = () => {}

describe('validatePodStatusUpdate', () => {
  table([
    [
      'a kubelet-style Running status is accepted',
      none,
      (p) =>
        Object.assign(p.status, {
          phase: 'Running',
          podIP: '10.0.0.5',
          podIPs: [{ ip: '10.0.0.5' }],
          hostIP: '192.168.1.2',
          hostIPs: [{ ip: '192.168.1.2' }],
          conditions: [{ type: 'Ready', status: 'True' }],
          containerStatuses: [running()],
        }),
      [],
    ],
    [
      'custom condition types are qualified names (kube reports them under metadata.conditions[i].Type)',
      none,
      (p) =>
        (p.status.conditions = [
          { type: 'Ready', status: 'True' },
          { type: 'a/b/c', status: 'True' },
        ]),
      [`metadata.conditions[1].Type: Invalid value: "a/b/c": ${QUALIFIED_TOO_MANY_SLASHES}`],
    ],
    [
      'prefixed custom conditions are fine',
      none,
      (p) => (p.status.conditions = [{ type: 'example.com/ready', status: 'False' }]),
      [],
    ],
    [
      'qosClass is immutable',
      none,
      (p) => (p.status.qosClass = 'Guaranteed'),
      ['status.qosClass: Invalid value: "Guaranteed": field is immutable'],
    ],
    [
      'the node is not changed through status',
      none,
      (p) => (p.spec.nodeName = 'node-1'),
      ['status.nodeName: Forbidden: may not be changed directly'],
    ],
    [
      'nominatedNodeName is a node name',
      none,
      (p) => (p.status.nominatedNodeName = 'Node_1'),
      [`status.nominatedNodeName: Invalid value: "Node_1": ${SUBDOMAIN}`],
    ],
    [
      'pod IPs are IPs',
      none,
      (p) => (p.status.podIPs = [{ ip: '10.0.0.300' }]),
      [`status.podIPs[0]: Invalid value: "10.0.0.300": ${IP}`],
    ],
    [
      'at most one pod IP per family',
      none,
      (p) => (p.status.podIPs = [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }]),
      [
        'status.podIPs: Invalid value: []core.PodIP{core.PodIP{IP:"10.0.0.1"}, core.PodIP{IP:"10.0.0.2"}}: may specify no more than one IP for each IP family',
      ],
    ],
    ['dual-stack pod IPs are fine', none, (p) => (p.status.podIPs = [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }]), []],
    [
      'pod IPs are unique',
      none,
      (p) => (p.status.podIPs = [{ ip: 'fd00::1' }, { ip: 'fd00::1' }]),
      [
        'status.podIPs: Invalid value: []core.PodIP{core.PodIP{IP:"fd00::1"}, core.PodIP{IP:"fd00::1"}}: may specify no more than one IP for each IP family',
        'status.podIPs[1]: Duplicate value: core.PodIP{IP:"fd00::1"}',
      ],
    ],
    [
      'podIP is authoritative: a disagreeing podIPs is replaced, not rejected',
      none,
      (p) => Object.assign(p.status, { podIP: '10.0.0.9', podIPs: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }] }),
      [],
    ],
    [
      'hostIPs[0] is hostIP',
      none,
      (p) => Object.assign(p.status, { hostIP: '192.168.1.2', hostIPs: [{ ip: '192.168.1.3' }] }),
      ['status.hostIPs[0].ip: Invalid value: "192.168.1.3": must be equal to `hostIP`'],
    ],
    [
      'a finished container stays finished under restartPolicy Never',
      (p) => {
        p.spec.restartPolicy = 'Never'
        p.status.containerStatuses = [terminated(0)]
      },
      (p) => {
        p.spec.restartPolicy = 'Never'
        p.status.containerStatuses = [running()]
      },
      ['status.containerStatuses[0].state: Forbidden: may not be transitioned to non-terminated state'],
    ],
    [
      'a failed container may restart under OnFailure',
      (p) => {
        p.spec.restartPolicy = 'OnFailure'
        p.status.containerStatuses = [terminated(1)]
      },
      (p) => {
        p.spec.restartPolicy = 'OnFailure'
        p.status.containerStatuses = [running()]
      },
      [],
    ],
    [
      'as in kube, statuses of unknown containers are accepted',
      none,
      (p) => (p.status.containerStatuses = [running('ghost')]),
      [],
    ],
    [
      'resource claim statuses name pod resource claims',
      none,
      (p) => (p.status.resourceClaimStatuses = [{ name: 'gpu', resourceClaimName: 'pod-gpu' }]),
      [
        'status.resourceClaimStatuses[0].name: Invalid value: "gpu": must match the name of an entry in `spec.resourceClaims`',
      ],
    ],
    [
      'container user IDs are uids (reported without `user`, as kube does)',
      none,
      (p) => (p.status.containerStatuses = [{ ...running(), user: { linux: { uid: -1, gid: 0 } } }]),
      ['status.containerStatuses[0].linux.uid: Invalid value: -1: must be between 0 and 4294967295, inclusive'],
    ],
  ])
})
