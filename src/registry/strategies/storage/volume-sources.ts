// What a PersistentVolume's spec must hold, after kube 1.33's ValidatePersistentVolumeSpec: exactly one volume
// source (each checked as kube checks it: host paths, NFS, local disks with their node affinity, CSI with its secret
// references, the required fields of the rest), capacity of storage only, access modes, reclaim policy, class,
// volume mode and the VolumeAttributesClass (beta in 1.33, off by default: checked only once the volume has one).
import type { PersistentVolume } from '../../../schema/persistent-volume'
import { canonicalQuantity, parseQuantity } from '../../../schema/quantity'
import { fieldError, FieldPath, type FieldError } from '../../field-errors'
import { nameIsDNSSubdomain, validateNamespaceName } from '../../validation/names'
import { validatePathNoBacksteps } from '../pod/pod-validation-mounts'
import { validateNodeSelector } from '../pod/pod-validation-affinity'
import { requiredAll, validateCSIDriverName, validateHostPath } from '../pod/pod-validation-volumes-storage'

type Spec = NonNullable<PersistentVolume['spec']>

export const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod']
const RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain']
const VOLUME_MODES = ['Block', 'Filesystem']
const CSI_SECRETS = [
  'controllerPublishSecretRef',
  'nodeStageSecretRef',
  'nodePublishSecretRef',
  'controllerExpandSecretRef',
  'nodeExpandSecretRef',
] as const

/** The volume sources of PersistentVolumeSource in Go's order, with the path each one's errors are reported at. */
type SourceCheck = (spec: Spec, at: FieldPath) => FieldError[]
const SOURCES: [key: keyof Spec, errorPath: string, check: SourceCheck][] = [
  ['hostPath', 'hostPath', (s, p) => validateHostPath(s.hostPath!, p)],
  ['gcePersistentDisk', 'persistentDisk', (s, p) => requiredAll(p, [['pdName', s.gcePersistentDisk!.pdName]])],
  [
    'awsElasticBlockStore',
    'awsElasticBlockStore',
    (s, p) => requiredAll(p, [['volumeID', s.awsElasticBlockStore!.volumeID]]),
  ],
  [
    'glusterfs',
    'glusterfs',
    (s, p) =>
      requiredAll(p, [
        ['endpoints', s.glusterfs!.endpoints],
        ['path', s.glusterfs!.path],
      ]),
  ],
  ['flocker', 'flocker', () => []],
  [
    'nfs',
    'nfs',
    (s, p) => {
      const errs = requiredAll(p, [
        ['server', s.nfs!.server],
        ['path', s.nfs!.path],
      ])
      if (!s.nfs!.path.startsWith('/'))
        errs.push(fieldError.invalid(p.child('path').toString(), s.nfs!.path, 'must be an absolute path'))
      return errs
    },
  ],
  [
    'rbd',
    'rbd',
    (s, p) => [
      ...(s.rbd!.monitors.length === 0 ? [fieldError.required(p.child('monitors').toString())] : []),
      ...requiredAll(p, [['image', s.rbd!.image]]),
    ],
  ],
  [
    'quobyte',
    'quobyte',
    (s, p) =>
      requiredAll(p, [
        ['registry', s.quobyte!.registry],
        ['volume', s.quobyte!.volume],
      ]),
  ],
  [
    'cephfs',
    'cephfs',
    (s, p) => (s.cephfs!.monitors.length === 0 ? [fieldError.required(p.child('monitors').toString())] : []),
  ],
  [
    'iscsi',
    'iscsi',
    (s, p) =>
      requiredAll(p, [
        ['targetPortal', s.iscsi!.targetPortal],
        ['iqn', s.iscsi!.iqn],
      ]),
  ],
  ['cinder', 'cinder', (s, p) => requiredAll(p, [['volumeID', s.cinder!.volumeID]])],
  ['fc', 'fc', () => []],
  ['flexVolume', 'flexVolume', (s, p) => requiredAll(p, [['driver', s.flexVolume!.driver]])],
  [
    'azureFile',
    'azureFile',
    (s, p) =>
      requiredAll(p, [
        ['secretName', s.azureFile!.secretName],
        ['shareName', s.azureFile!.shareName],
      ]),
  ],
  ['vsphereVolume', 'vsphereVolume', (s, p) => requiredAll(p, [['volumePath', s.vsphereVolume!.volumePath]])],
  ['photonPersistentDisk', 'photonPersistentDisk', (s, p) => requiredAll(p, [['pdID', s.photonPersistentDisk!.pdID]])],
  ['portworxVolume', 'portworxVolume', (s, p) => requiredAll(p, [['volumeID', s.portworxVolume!.volumeID]])],
  [
    'azureDisk',
    'azureDisk',
    (s, p) =>
      requiredAll(p, [
        ['diskName', s.azureDisk!.diskName],
        ['diskURI', s.azureDisk!.diskURI],
      ]),
  ],
  [
    'scaleIO',
    'scaleIO',
    (s, p) =>
      requiredAll(p, [
        ['gateway', s.scaleIO!.gateway],
        ['system', s.scaleIO!.system],
      ]),
  ],
  [
    'local',
    'local',
    (s, p) =>
      s.local!.path
        ? validatePathNoBacksteps(s.local!.path, p.child('path'))
        : [fieldError.required(p.child('path').toString())],
  ],
  ['storageos', 'storageos', () => []],
  [
    'csi',
    'csi',
    (s, p) => {
      const csi = s.csi!
      const errs = validateCSIDriverName(csi.driver, p.child('driver'))
      if (!csi.volumeHandle) errs.push(fieldError.required(p.child('volumeHandle').toString()))
      for (const ref of CSI_SECRETS) {
        const secret = csi[ref]
        if (!secret) continue
        const at = p.child(ref)
        if (!secret.name) errs.push(fieldError.required(at.child('name').toString()))
        else
          for (const m of nameIsDNSSubdomain(secret.name, false))
            errs.push(fieldError.invalid(at.child('name').toString(), secret.name, m))
        if (!secret.namespace) errs.push(fieldError.required(at.child('namespace').toString()))
        else
          for (const m of validateNamespaceName(secret.namespace, false))
            errs.push(fieldError.invalid(at.child('namespace').toString(), secret.namespace, m))
      }
      return errs
    },
  ],
]

/** The fields of PersistentVolumeSource, for the immutability check on update. */
export const SOURCE_KEYS = SOURCES.map(([k]) => k)

/** Go's %#v of a ResourceList, as kube's NotSupported error prints the capacity. */
const goResourceList = (m: Record<string, unknown>) =>
  `core.ResourceList{${Object.entries(m)
    .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(canonicalQuantity(v as string) ?? String(v))}`)
    .join(', ')}}`

/** Whether Go's path.Clean of an absolute path is "/". */
function cleansToRoot(path: string): boolean {
  if (!path.startsWith('/')) return false
  let depth = 0
  for (const part of path.split('/')) {
    if (part === '..') depth = Math.max(0, depth - 1)
    else if (part !== '' && part !== '.') depth++
  }
  return depth === 0
}

/** ValidatePersistentVolumeSpec (not inline). `hasClass`: the volume already had a VolumeAttributesClass. */
export function validatePersistentVolumeSpec(spec: Spec, hasClass: boolean): FieldError[] {
  const p = new FieldPath('spec')
  const errs: FieldError[] = []
  const modes = spec.accessModes ?? []
  if (modes.length === 0) errs.push(fieldError.required('spec.accessModes'))
  for (const mode of modes)
    if (!ACCESS_MODES.includes(mode)) errs.push(fieldError.notSupported('spec.accessModes', mode, ACCESS_MODES))
  if (modes.includes('ReadWriteOncePod') && modes.some((m) => m !== 'ReadWriteOncePod' && ACCESS_MODES.includes(m)))
    errs.push(fieldError.forbidden('spec.accessModes', 'may not use ReadWriteOncePod with other access modes'))
  const capacity = spec.capacity ?? {}
  const keys = Object.keys(capacity)
  if (keys.length === 0) errs.push(fieldError.required('spec.capacity'))
  if (!keys.includes('storage') || keys.length > 1)
    errs.push({
      ...fieldError.notSupported('spec.capacity', '', ['storage']),
      message: `Unsupported value: ${goResourceList(capacity)}: supported values: "storage"`,
    })
  for (const k of keys) {
    const q = parseQuantity(capacity[k] as string)
    const at = p.child('capacity').key(k).toString()
    if (q && q.mantissa < 0n) errs.push(fieldError.invalid(at, Number(q.mantissa), 'must be a valid resource quantity'))
    if (!q || q.mantissa <= 0n)
      errs.push(
        fieldError.invalid(
          at,
          canonicalQuantity(capacity[k] as string) ?? String(capacity[k]),
          'must be greater than zero',
        ),
      )
  }
  const policy = spec.persistentVolumeReclaimPolicy
  if (policy && !RECLAIM_POLICIES.includes(policy))
    errs.push(fieldError.notSupported('spec.persistentVolumeReclaimPolicy', policy, RECLAIM_POLICIES))
  let affinity = false
  if (spec.nodeAffinity) {
    affinity = true
    const na = spec.nodeAffinity
    if (na.required) errs.push(...validateNodeSelector(na.required, false, p.child('nodeAffinity').child('required')))
    else errs.push(fieldError.required('spec.nodeAffinity.required', 'must specify required node constraints'))
  }
  let sources = 0
  for (const [key, errorPath, check] of SOURCES) {
    if (spec[key] === undefined) continue
    // FlexVolume is counted but never refused as a second type (kube's quirk).
    if (sources > 0 && key !== 'flexVolume') {
      const named = key === 'cephfs' ? 'cephFS' : key
      errs.push(fieldError.forbidden(p.child(named).toString(), 'may not specify more than 1 volume type'))
      continue
    }
    sources++
    errs.push(...check(spec, p.child(errorPath)))
    if (key === 'local' && !affinity)
      errs.push(fieldError.required('spec.nodeAffinity', 'Local volume requires node affinity'))
  }
  if (sources === 0) errs.push(fieldError.required('spec', 'must specify a volume type'))
  if (spec.hostPath && cleansToRoot(spec.hostPath.path) && policy === 'Recycle')
    errs.push(
      fieldError.forbidden('spec.persistentVolumeReclaimPolicy', "may not be 'recycle' for a hostPath mount of '/'"),
    )
  if (spec.storageClassName)
    for (const m of nameIsDNSSubdomain(spec.storageClassName, false))
      errs.push(fieldError.invalid('spec.storageClassName', spec.storageClassName, m))
  if (spec.volumeMode !== undefined && !VOLUME_MODES.includes(spec.volumeMode))
    errs.push(fieldError.notSupported('spec.volumeMode', spec.volumeMode, VOLUME_MODES))
  if (spec.volumeAttributesClassName !== undefined && hasClass) {
    if (spec.volumeAttributesClassName === '')
      errs.push(fieldError.required('spec.volumeAttributesClassName', 'an empty string is disallowed'))
    else
      for (const m of nameIsDNSSubdomain(spec.volumeAttributesClassName, false))
        errs.push(fieldError.invalid('spec.volumeAttributesClassName', spec.volumeAttributesClassName, m))
    if (!spec.csi)
      errs.push(fieldError.required('spec.csi', 'has to be specified when using volumeAttributesClassName'))
  }
  return errs
}

/** helper.GetAccessModesAsString: the short forms in kube's fixed order. */
export function accessModesString(modes: readonly string[] | undefined): string {
  const m = new Set(modes ?? [])
  return [
    ['ReadWriteOnce', 'RWO'],
    ['ReadOnlyMany', 'ROX'],
    ['ReadWriteMany', 'RWX'],
    ['ReadWriteOncePod', 'RWOP'],
  ]
    .filter(([mode]) => m.has(mode!))
    .map(([, short]) => short)
    .join(',')
}
