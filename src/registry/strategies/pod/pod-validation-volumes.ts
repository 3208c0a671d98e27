// Volume validation (ValidateVolumes and validateVolumeSource with every source), after kube-apiserver 1.33
// pkg/apis/core/validation. Paths keep kube's quirks: a second source is reported at `downwarAPI` and `cephFS`, a GCE
// disk is validated under `persistentDisk`, and downward API files are reported on the source, not the item.
//
// Sources with longer checks have their own files: host paths and storage systems (pod-validation-volumes-storage.ts),
// the in-tree storage plugins' sources (pod-validation-volumes-plugins.ts), files from API objects and pod fields
// (pod-validation-volumes-files.ts), projected volumes (pod-validation-volumes-projected.ts) and generic ephemeral
// volumes' claim templates (pod-validation-volumes-claims.ts).
// Volume mounts are a container's, in pod-validation-mounts.ts.
import { fieldError, type FieldError, type FieldPath } from '../../field-errors'
import { isDNS1123Subdomain } from '../../validation/names'
import { goQuote } from '../../go-strings'
import { list, nameIsSubdomain, str, validateDNS1123Label } from './pod-validation-formats'
import { isNegativeQuantity } from './pod-validation-quantities'
import { validateLocalDescendingPath } from './pod-validation-mounts'
import { validatePullPolicy } from './pod-validation-containers'
import {
  requiredAll,
  validateAzureDisk,
  validateCSIDriverName,
  validateDisk,
  validateHostPath,
  validateISCSI,
  validateQuobyte,
} from './pod-validation-volumes-storage'
import { validateDownwardAPIVolumeFile, validateKeyToPath, validateMode } from './pod-validation-volumes-files'
import { validateProjected } from './pod-validation-volumes-projected'
import { validatePVCSpec, validateTemplateObjectMeta } from './pod-validation-volumes-claims'
import { PLUGIN_CHECKS } from './pod-validation-volumes-plugins'
import type { Volume } from './pod-types'
import type { ObjectMeta } from '../../../schema/meta'

type Source = Omit<Volume, 'name'>

/** ValidateVolumes: the volumes that validated cleanly (what mounts may name), and every error. */
export function validateVolumes(volumes: readonly Volume[], podMeta: ObjectMeta | undefined, path: FieldPath) {
  const errs: FieldError[] = []
  const valid = new Map<string, Volume>()
  const names = new Set<string>()
  const podName = podMeta?.name ?? ''
  // The claims generic ephemeral volumes will create, named <pod>-<volume>.
  const createdClaims = new Set(podName ? volumes.filter((v) => v.ephemeral).map((v) => `${podName}-${v.name}`) : [])
  volumes.forEach((vol, i) => {
    const p = path.index(i)
    const namePath = p.child('name')
    const el = validateVolumeSource(vol, p, vol.name ?? '', podName)
    if (!vol.name) el.push(fieldError.required(namePath.toString()))
    else el.push(...validateDNS1123Label(vol.name, namePath))
    if (names.has(vol.name)) el.push(fieldError.duplicate(namePath.toString(), vol.name))
    if (el.length === 0) {
      names.add(vol.name)
      valid.set(vol.name, vol)
    } else {
      errs.push(...el)
    }
    const claim = vol.persistentVolumeClaim?.claimName
    if (claim !== undefined && createdClaims.has(claim)) {
      errs.push(
        fieldError.invalid(
          p.child('persistentVolumeClaim').child('claimName').toString(),
          claim,
          'must not reference a PVC that gets created for an ephemeral volume',
        ),
      )
    }
  })
  return { volumes: valid, errors: errs }
}

type SourceCheck = [
  key: keyof Source,
  forbiddenAt: string,
  check: (src: Source, path: FieldPath, volName: string, podName: string) => FieldError[],
]

// kube's order; the second element is where a second source is reported (typos included).
const SOURCES: SourceCheck[] = [
  [
    'emptyDir',
    'emptyDir',
    (s, p) => {
      const limit = s.emptyDir!.sizeLimit
      return limit !== undefined && isNegativeQuantity(limit)
        ? [
            fieldError.forbidden(
              p.child('emptyDir').child('sizeLimit').toString(),
              'SizeLimit field must be a valid resource quantity',
            ),
          ]
        : []
    },
  ],
  ['hostPath', 'hostPath', (s, p) => validateHostPath(s.hostPath!, p.child('hostPath'))],
  [
    'gitRepo',
    'gitRepo',
    (s, p) => {
      const errs: FieldError[] = []
      const g = s.gitRepo!
      if (!g.repository) errs.push(fieldError.required(p.child('gitRepo').child('repository').toString()))
      errs.push(...validateLocalDescendingPath(str(g.directory), p.child('gitRepo').child('directory')))
      return errs
    },
  ],
  [
    'gcePersistentDisk',
    'gcePersistentDisk',
    (s, p) =>
      validateDisk(s.gcePersistentDisk!.pdName, 'pdName', s.gcePersistentDisk!.partition, p.child('persistentDisk')),
  ],
  [
    'awsElasticBlockStore',
    'awsElasticBlockStore',
    (s, p) =>
      validateDisk(
        s.awsElasticBlockStore!.volumeID,
        'volumeID',
        s.awsElasticBlockStore!.partition,
        p.child('awsElasticBlockStore'),
      ),
  ],
  [
    'secret',
    'secret',
    (s, p) => {
      const sp = p.child('secret')
      const errs: FieldError[] = []
      if (!s.secret!.secretName) errs.push(fieldError.required(sp.child('secretName').toString()))
      errs.push(...validateMode(s.secret!.defaultMode, sp.child('defaultMode')))
      list(s.secret!.items).forEach((kp, i) => errs.push(...validateKeyToPath(kp, sp.child('items').index(i))))
      return errs
    },
  ],
  ['nfs', 'nfs', PLUGIN_CHECKS.nfs],
  ['iscsi', 'iscsi', (s, p, volName) => validateISCSI(s.iscsi!, p.child('iscsi'), volName, p)],
  ['glusterfs', 'glusterfs', PLUGIN_CHECKS.glusterfs],
  ['flocker', 'flocker', PLUGIN_CHECKS.flocker],
  [
    'persistentVolumeClaim',
    'persistentVolumeClaim',
    (s, p) => requiredAll(p.child('persistentVolumeClaim'), [['claimName', s.persistentVolumeClaim!.claimName]]),
  ],
  ['rbd', 'rbd', PLUGIN_CHECKS.rbd],
  ['cinder', 'cinder', PLUGIN_CHECKS.cinder],
  ['cephfs', 'cephFS', PLUGIN_CHECKS.cephfs],
  ['quobyte', 'quobyte', (s, p) => validateQuobyte(s.quobyte!, p.child('quobyte'))],
  [
    'downwardAPI',
    'downwarAPI',
    (s, p) => {
      const dp = p.child('downwardAPI')
      const errs = validateMode(s.downwardAPI!.defaultMode, dp.child('defaultMode'))
      for (const file of list(s.downwardAPI!.items)) errs.push(...validateDownwardAPIVolumeFile(file, dp))
      return errs
    },
  ],
  ['fc', 'fc', PLUGIN_CHECKS.fc],
  ['flexVolume', 'flexVolume', PLUGIN_CHECKS.flexVolume],
  [
    'configMap',
    'configMap',
    (s, p) => {
      const cp = p.child('configMap')
      const errs: FieldError[] = []
      if (!s.configMap!.name) errs.push(fieldError.required(cp.child('name').toString()))
      errs.push(...validateMode(s.configMap!.defaultMode, cp.child('defaultMode')))
      list(s.configMap!.items).forEach((kp, i) => errs.push(...validateKeyToPath(kp, cp.child('items').index(i))))
      return errs
    },
  ],
  ['azureFile', 'azureFile', PLUGIN_CHECKS.azureFile],
  ['vsphereVolume', 'vsphereVolume', PLUGIN_CHECKS.vsphereVolume],
  ['photonPersistentDisk', 'photonPersistentDisk', PLUGIN_CHECKS.photonPersistentDisk],
  ['portworxVolume', 'portworxVolume', PLUGIN_CHECKS.portworxVolume],
  ['azureDisk', 'azureDisk', (s, p) => validateAzureDisk(s.azureDisk!, p.child('azureDisk'))],
  ['storageos', 'storageos', PLUGIN_CHECKS.storageos],
  ['projected', 'projected', (s, p) => validateProjected(s.projected!, p.child('projected'))],
  ['scaleIO', 'scaleIO', PLUGIN_CHECKS.scaleIO],
  [
    'csi',
    'csi',
    (s, p) => {
      const cp = p.child('csi')
      const errs = validateCSIDriverName(str(s.csi!.driver), cp.child('driver'))
      const ref = s.csi!.nodePublishSecretRef
      if (ref) {
        if (!ref.name) errs.push(fieldError.required(cp.child('nodePublishSecretRef').child('name').toString()))
        else
          errs.push(
            ...nameIsSubdomain(ref.name, false).map((m) =>
              fieldError.invalid(cp.child('name').toString(), ref.name, m),
            ),
          )
      }
      return errs
    },
  ],
  [
    'ephemeral',
    'ephemeral',
    (s, p, volName, podName) => {
      const ep = p.child('ephemeral')
      const template = s.ephemeral!.volumeClaimTemplate
      const errs: FieldError[] = []
      if (!template) errs.push(fieldError.required(ep.child('volumeClaimTemplate').toString()))
      else {
        const tp = ep.child('volumeClaimTemplate')
        errs.push(...validateTemplateObjectMeta(template.metadata, tp.child('metadata')))
        errs.push(...validatePVCSpec(template.spec ?? {}, tp.child('spec')))
      }
      // The claim the pod will get must itself be a valid name.
      if (podName && volName) {
        const pvc = `${podName}-${volName}`
        for (const m of isDNS1123Subdomain(pvc))
          errs.push(fieldError.invalid(p.child('name').toString(), volName, `PVC name ${goQuote(pvc)}: ${m}`))
      }
      return errs
    },
  ],
  [
    'image',
    'image',
    (s, p) => {
      const ip = p.child('image')
      const errs: FieldError[] = []
      if (!s.image!.reference) errs.push(fieldError.required(ip.child('reference').toString()))
      errs.push(...validatePullPolicy(str(s.image!.pullPolicy), ip.child('pullPolicy')))
      return errs
    },
  ],
]

/** validateVolumeSource: exactly one source, each with its own required fields. */
function validateVolumeSource(source: Source, path: FieldPath, volName: string, podName: string): FieldError[] {
  const errs: FieldError[] = []
  let n = 0
  for (const [key, forbiddenAt, check] of SOURCES) {
    if (source[key] === undefined) continue
    // emptyDir comes first, so it is never the second source.
    if (n > 0 && key !== 'emptyDir') {
      errs.push(fieldError.forbidden(path.child(forbiddenAt).toString(), 'may not specify more than 1 volume type'))
    } else {
      n++
      errs.push(...check(source, path, volName, podName))
    }
  }
  if (n === 0) errs.push(fieldError.required(path.toString(), 'must specify a volume type'))
  return errs
}
