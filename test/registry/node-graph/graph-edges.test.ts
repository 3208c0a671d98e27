// The Node authorizer's graph edges as index rows (kube's graph.go AddPod and AddPV, and the visitors of
// pkg/api/v1/pod and pkg/api/v1/persistentvolume), table-driven.
import { describe, expect, it } from 'vitest'
import { graphEdgesChanged, graphEdgesOf, pvSecretRefs } from '../../../src/registry/node-graph/graph-edges'
import {
  podClaimNames,
  podConfigMapNames,
  podResourceClaimNames,
  podSecretNames,
} from '../../../src/registry/node-graph/pod-references'
import type { KubeObject } from '../../../src/schema/meta'

const podWith = (spec: Record<string, unknown>, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns', uid: 'u1' },
  spec: { containers: [{ name: 'c', image: 'x' }], ...spec },
  ...extra,
})

describe('pod references', () => {
  it('visits secrets as kube does: pull secrets, every container’s env, each volume’s one source', () => {
    const pod = podWith({
      imagePullSecrets: [{ name: 'pull' }, { name: '' }],
      initContainers: [{ name: 'i', image: 'x', envFrom: [{ secretRef: { name: 'init-env' } }] }],
      containers: [
        {
          name: 'c',
          image: 'x',
          env: [
            { name: 'A', valueFrom: { secretKeyRef: { name: 'key', key: 'k' } } },
            { name: 'B', valueFrom: { configMapKeyRef: { name: 'cm-key', key: 'k' } } },
          ],
          envFrom: [{ configMapRef: { name: 'cm-env' } }],
        },
      ],
      ephemeralContainers: [{ name: 'e', image: 'x', envFrom: [{ secretRef: { name: 'debug' } }] }],
      volumes: [
        { name: 's', secret: { secretName: 'vol' } },
        { name: 'az', azureFile: { secretName: 'azure', shareName: 's' } },
        { name: 'ceph', cephfs: { monitors: ['m'], secretRef: { name: 'ceph' } } },
        { name: 'csi', csi: { driver: 'd', nodePublishSecretRef: { name: 'csi' } } },
        { name: 'proj', projected: { sources: [{ secret: { name: 'proj' } }, { configMap: { name: 'proj-cm' } }] } },
        { name: 'cm', configMap: { name: 'vol-cm' } },
        { name: 'claim', persistentVolumeClaim: { claimName: 'data' } },
        { name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: {} } } },
      ],
    })
    expect(podSecretNames(pod)).toEqual(['pull', 'init-env', 'key', 'debug', 'vol', 'azure', 'ceph', 'csi', 'proj'])
    expect(podConfigMapNames(pod)).toEqual(['cm-env', 'cm-key', 'proj-cm', 'vol-cm'])
    expect(podClaimNames(pod)).toEqual(['data', 'p-scratch'])
  })

  it('resolves resource claims as resourceclaim.Name: named, or the generated one once recorded', () => {
    const pod = podWith(
      {
        resourceClaims: [
          { name: 'direct', resourceClaimName: 'claim-a' },
          { name: 'templated', resourceClaimTemplateName: 'tmpl' },
          { name: 'pending', resourceClaimTemplateName: 'tmpl' },
        ],
      },
      { status: { resourceClaimStatuses: [{ name: 'templated', resourceClaimName: 'p-templated-x' }] } },
    )
    expect(podResourceClaimNames(pod)).toEqual(['claim-a', 'p-templated-x'])
  })
})

describe('graph edges', () => {
  const bound = podWith({
    nodeName: 'n1',
    serviceAccountName: 'sa',
    imagePullSecrets: [{ name: 'pull' }],
    containers: [{ name: 'c', image: 'x', envFrom: [{ secretRef: { name: 'pull' } }] }],
    volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }],
  })

  it('a bound pod: its service account, secrets (once each), configmaps, claims, all toward its node', () => {
    expect(graphEdgesOf('pods', bound)).toEqual([
      { type: 'serviceAccount', namespace: '', name: 'sa', node: 'n1' },
      { type: 'secret', namespace: '', name: 'pull', node: 'n1' },
      { type: 'pvc', namespace: '', name: 'data', node: 'n1' },
    ])
  })

  it('an unbound pod and a mirror pod have none', () => {
    expect(graphEdgesOf('pods', podWith({ serviceAccountName: 'sa' }))).toEqual([])
    const mirror = { ...bound, metadata: { ...bound.metadata, annotations: { 'kubernetes.io/config.mirror': 'x' } } }
    expect(graphEdgesOf('pods', mirror)).toEqual([])
    expect(graphEdgesOf('configmaps', bound)).toEqual([])
  })

  it('change only with the node, the uid or the resource claim statuses', () => {
    const status = { ...bound, status: { phase: 'Running' } }
    expect(graphEdgesChanged('pods', bound, status)).toBe(false)
    expect(graphEdgesChanged('pods', podWith({}), bound)).toBe(true)
    expect(graphEdgesChanged('pods', bound, { ...bound, metadata: { ...bound.metadata, uid: 'u2' } })).toBe(true)
    const claimed = { ...bound, status: { resourceClaimStatuses: [{ name: 'x', resourceClaimName: 'y' }] } }
    expect(graphEdgesChanged('pods', bound, claimed)).toBe(true)
    expect(graphEdgesChanged('services', bound, claimed)).toBe(false)
  })

  it('a volume with a claim: the claim, and the secrets the kubelet reads for it', () => {
    const pv = (source: Record<string, unknown>, claim = true): KubeObject => ({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv1' },
      spec: { ...source, ...(claim ? { claimRef: { namespace: 'ns', name: 'data' } } : {}) },
    })
    const csi = pv({
      csi: {
        driver: 'd',
        volumeHandle: 'h',
        controllerPublishSecretRef: { name: 'ctrl', namespace: 'ops' },
        nodePublishSecretRef: { name: 'pub', namespace: 'ops' },
        nodeStageSecretRef: { name: 'stage', namespace: 'ops' },
      },
    })
    expect(graphEdgesOf('persistentvolumes', csi)).toEqual([
      { type: 'pvc', namespace: 'ns', name: 'data', node: '' },
      { type: 'secret', namespace: 'ops', name: 'pub', node: '' },
      { type: 'secret', namespace: 'ops', name: 'stage', node: '' },
    ])
    // Sources that name no namespace use the claim's.
    expect(pvSecretRefs(pv({ azureFile: { secretName: 'az', shareName: 's' } }))).toEqual([
      { namespace: 'ns', name: 'az' },
    ])
    expect(pvSecretRefs(pv({ rbd: { monitors: ['m'], image: 'i', secretRef: { name: 'r' } } }))).toEqual([
      { namespace: 'ns', name: 'r' },
    ])
    expect(pvSecretRefs(pv({ cephfs: { monitors: ['m'], secretRef: { name: 'c', namespace: 'other' } } }))).toEqual([
      { namespace: 'other', name: 'c' },
    ])
    expect(graphEdgesOf('persistentvolumes', pv({ hostPath: { path: '/x' } }, false))).toEqual([])
  })
})
