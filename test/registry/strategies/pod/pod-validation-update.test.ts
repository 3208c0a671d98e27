// Pod update validation: the stored pod is the defaulted kubectl run pod; each row defaults a changed body the way the
// store defaults PUT bodies and checks every error validatePodUpdate returns, with kube's path and wording.
import { describe, expect, it } from 'vitest'
import { validatePodUpdate } from '../../../../src/registry/strategies/pod/pod-validation-update'
import { describeSpecDiff } from '../../../../src/registry/strategies/pod/pod-spec-diff'
import { defaulted, rendered, type Body } from './pod-fixtures'

const UPDATABLE =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)'

type Row = [name: string, old: (pod: Body) => void, update: (pod: Body) => void, expected: string[]]

const none = () => {}

function table(rows: Row[]) {
  it.each(rows)('%s', (_name, old, update, expected) => {
    expect(rendered(validatePodUpdate(defaulted(update), defaulted(old)))).toEqual(expected)
  })
}

describe('validatePodUpdate: sparse replace (kubectl replace)', () => {
  it('a sparse PUT of the same manifest changes nothing', () => {
    expect(validatePodUpdate(defaulted(), defaulted())).toEqual([])
  })

  it('a sparse PUT that only changes the image passes', () => {
    const old = defaulted((p) => (p.spec.containers[0].image = 'nginx:1.25'))
    const now = defaulted((p) => (p.spec.containers[0].image = 'nginx:1.27'))
    expect(validatePodUpdate(now, old)).toEqual([])
    expect(now.spec.containers[0]!.image).toBe('nginx:1.27')
  })

  it('as in kube, a sparse image change that flips the defaulted pull policy is a spec change', () => {
    // nginx (implied :latest) defaults to Always, nginx:1.27 to IfNotPresent: the replace body differs in more than the image.
    const errs = rendered(
      validatePodUpdate(
        defaulted((p) => (p.spec.containers[0].image = 'nginx:1.27')),
        defaulted(),
      ),
    )
    expect(errs).toEqual([
      `spec: Forbidden: ${UPDATABLE}\n  core.PodSpec{\n- \tcontainers[0].imagePullPolicy: "Always"\n+ \tcontainers[0].imagePullPolicy: "IfNotPresent"\n  }`,
    ])
  })

  it('a sparse PUT that changes a port gets the Forbidden error with a diff', () => {
    const old = defaulted((p) => (p.spec.containers[0].ports = [{ containerPort: 80 }]))
    const now = defaulted((p) => (p.spec.containers[0].ports = [{ containerPort: 8080 }]))
    const errs = validatePodUpdate(now, old)
    expect(errs).toEqual([
      {
        type: 'FieldValueForbidden',
        field: 'spec',
        message: `Forbidden: ${UPDATABLE}\n  core.PodSpec{\n- \tcontainers[0].ports[0].containerPort: 80\n+ \tcontainers[0].ports[0].containerPort: 8080\n  }`,
      },
    ])
  })

  it('the diff names fields added and removed', () => {
    const old = defaulted()
    const now = defaulted((p) => {
      p.spec.containers[0].workingDir = '/app'
      p.spec.hostname = 'web'
    })
    expect(describeSpecDiff(old.spec, now.spec)).toBe(
      '  core.PodSpec{\n+ \tcontainers[0].workingDir: "/app"\n+ \thostname: "web"\n  }',
    )
  })
})

describe('validatePodUpdate: what may change', () => {
  table([
    ['labels and annotations are metadata, always mutable', none, (p) => (p.metadata.labels = { run: 'other' }), []],
    [
      'init container images',
      (p) => (p.spec.initContainers = [{ name: 'init', image: 'busybox:1.36' }]),
      (p) => (p.spec.initContainers = [{ name: 'init', image: 'busybox:1.37' }]),
      [],
    ],
    ['activeDeadlineSeconds may be set', none, (p) => (p.spec.activeDeadlineSeconds = 60), []],
    [
      'activeDeadlineSeconds may decrease',
      (p) => (p.spec.activeDeadlineSeconds = 60),
      (p) => (p.spec.activeDeadlineSeconds = 30),
      [],
    ],
    [
      'activeDeadlineSeconds may not increase',
      (p) => (p.spec.activeDeadlineSeconds = 30),
      (p) => (p.spec.activeDeadlineSeconds = 60),
      ['spec.activeDeadlineSeconds: Invalid value: 60: must be less than or equal to previous value'],
    ],
    [
      'activeDeadlineSeconds may not be removed',
      (p) => (p.spec.activeDeadlineSeconds = 30),
      none,
      ['spec.activeDeadlineSeconds: Invalid value: "null": must not update from a positive integer to nil value'],
    ],
    [
      'a negative activeDeadlineSeconds fails both ranges and stops there',
      none,
      (p) => (p.spec.activeDeadlineSeconds = -1),
      [
        'spec.activeDeadlineSeconds: Invalid value: -1: must be between 1 and 2147483647, inclusive',
        'spec.activeDeadlineSeconds: Invalid value: -1: must be between 0 and 2147483647, inclusive',
      ],
    ],
    ['tolerations may be added', none, (p) => (p.spec.tolerations = [{ key: 'dedicated', operator: 'Exists' }]), []],
    [
      'existing tolerations keep everything but tolerationSeconds',
      (p) =>
        (p.spec.tolerations = [
          { key: 'k', operator: 'Equal', value: 'a', effect: 'NoExecute', tolerationSeconds: 60 },
        ]),
      (p) =>
        (p.spec.tolerations = [
          { key: 'k', operator: 'Equal', value: 'a', effect: 'NoExecute', tolerationSeconds: 10 },
        ]),
      [],
    ],
    [
      'existing tolerations may not be modified',
      (p) => (p.spec.tolerations = [{ key: 'k', operator: 'Equal', value: 'a' }]),
      (p) => (p.spec.tolerations = [{ key: 'k', operator: 'Equal', value: 'b' }]),
      ['spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds'],
    ],
    [
      'existing tolerations may not be removed',
      (p) => (p.spec.tolerations = [{ key: 'k', operator: 'Exists' }]),
      none,
      ['spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds'],
    ],
    [
      'scheduling gates may be removed',
      (p) => (p.spec.schedulingGates = [{ name: 'a' }, { name: 'b' }]),
      (p) => (p.spec.schedulingGates = [{ name: 'a' }]),
      [],
    ],
    [
      'scheduling gates may not be added',
      (p) => (p.spec.schedulingGates = [{ name: 'a' }]),
      (p) => (p.spec.schedulingGates = [{ name: 'a' }, { name: 'b' }]),
      ["spec.schedulingGates[1].name: Forbidden: only deletion is allowed, but found new scheduling gate 'b'"],
    ],
    [
      'a gated pod may gain node selector entries',
      (p) => (p.spec.schedulingGates = [{ name: 'a' }]),
      (p) => {
        p.spec.schedulingGates = [{ name: 'a' }]
        p.spec.nodeSelector = { zone: 'a' }
      },
      [],
    ],
    [
      'a gated pod may not change node selector entries',
      (p) => {
        p.spec.schedulingGates = [{ name: 'a' }]
        p.spec.nodeSelector = { zone: 'a' }
      },
      (p) => {
        p.spec.schedulingGates = [{ name: 'a' }]
        p.spec.nodeSelector = { zone: 'b' }
      },
      [
        'spec.nodeSelector: Invalid value: map[string]string{"zone":"b"}: only additions to spec.nodeSelector are allowed (no mutations or deletions)',
      ],
    ],
  ])
})

describe('validatePodUpdate: what may not change', () => {
  table([
    [
      'containers may not be added (and validation stops there)',
      none,
      (p) => p.spec.containers.push({ name: 'sidecar', image: 'busybox' }),
      ['spec.containers: Forbidden: pod updates may not add or remove containers'],
    ],
    [
      'an image may not be removed (reported by create rules and update rules alike)',
      none,
      (p) => delete p.spec.containers[0].image,
      [
        'spec.containers[0].image: Required value',
        'spec.containers[0].image: Required value',
        expect.stringMatching(/^spec: Forbidden: pod updates may not change/) as unknown as string,
      ],
    ],
    [
      'terminationGracePeriodSeconds is fixed',
      none,
      (p) => (p.spec.terminationGracePeriodSeconds = 60),
      [
        `spec: Forbidden: ${UPDATABLE}\n  core.PodSpec{\n- \tterminationGracePeriodSeconds: 30\n+ \tterminationGracePeriodSeconds: 60\n  }`,
      ],
    ],
    [
      'a node selector is fixed once the pod is not gated',
      none,
      (p) => (p.spec.nodeSelector = { zone: 'a' }),
      [`spec: Forbidden: ${UPDATABLE}\n  core.PodSpec{\n+ \tnodeSelector: {"zone":"a"}\n  }`],
    ],
    [
      'ephemeral containers change only through their subresource',
      none,
      (p) => (p.spec.ephemeralContainers = [{ name: 'debug', image: 'busybox' }]),
      [
        expect.stringMatching(
          /^spec: Forbidden: pod updates may not change fields other than .*\n {2}core\.PodSpec\{\n\+ \tephemeralContainers: \[/s,
        ) as unknown as string,
      ],
    ],
    [
      'the mirror pod annotation may not be added',
      (p) => (p.spec.nodeName = 'node-1'),
      (p) => {
        p.spec.nodeName = 'node-1'
        // The stored pod's service account comes back in the body (admission gives mirror pods none of its own).
        p.spec.serviceAccountName = 'default'
        p.spec.serviceAccount = 'default'
        p.metadata.annotations = { 'kubernetes.io/config.mirror': 'x' }
      },
      ['metadata.annotations[kubernetes.io/config.mirror]: Forbidden: may not add mirror pod annotation'],
    ],
  ])
})
