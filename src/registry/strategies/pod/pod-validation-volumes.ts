// Volume validation (ValidateVolumes and validateVolumeSource with every source), after kube-apiserver 1.33
// pkg/apis/core/validation. Paths keep kube's quirks: a second source is reported at `downwarAPI` and `cephFS`, a GCE
// disk is validated under `persistentDisk`, and downward API files are reported on the source, not the item.
//
// Sources with longer checks have their own files: host paths and storage systems (pod-validation-volumes-storage.ts),
// files from API objects and pod fields (pod-validation-volumes-files.ts), projected volumes
// (pod-validation-volumes-projected.ts) and generic ephemeral volumes' claim templates (pod-validation-volumes-claims.ts).
// Volume mounts are a container's, in pod-validation-mounts.ts.
import { fieldError, type FieldError, type FieldPath } from '../../field-errors'
import { isDNS1123Subdomain } from '../../validation/names'
import { goQuote } from '../../go-strings'
import { inclusiveRangeError, list, nameIsSubdomain, str, validateDNS1123Label } from './pod-validation-formats'
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
  [
    'nfs',
    'nfs',
    (s, p) => {
      const np = p.child('nfs')
      const errs: FieldError[] = []
      if (!s.nfs!.server) errs.push(fieldError.required(np.child('server').toString()))
      if (!s.nfs!.path) errs.push(fieldError.required(np.child('path').toString()))
      if (!str(s.nfs!.path).startsWith('/'))
        errs.push(fieldError.invalid(np.child('path').toString(), str(s.nfs!.path), 'must be an absolute path'))
      return errs
    },
  ],
  ['iscsi', 'iscsi', (s, p, volName) => validateISCSI(s.iscsi!, p.child('iscsi'), volName, p)],
  [
    'glusterfs',
    'glusterfs',
    (s, p) =>
      requiredAll(p.child('glusterfs'), [
        ['endpoints', s.glusterfs!.endpoints],
        ['path', s.glusterfs!.path],
      ]),
  ],
  [
    'flocker',
    'flocker',
    (s, p) => {
      const fp = p.child('flocker')
      const f = s.flocker!
      const name = str(f.datasetName)
      const uuid = str(f.datasetUUID)
      const errs: FieldError[] = []
      if (!name && !uuid)
        errs.push(fieldError.required(fp.toString(), 'one of datasetName and datasetUUID is required'))
      if (name && uuid)
        errs.push(
          fieldError.invalid(
            fp.toString(),
            'resource',
            'datasetName and datasetUUID can not be specified simultaneously',
          ),
        )
      if (name.includes('/'))
        errs.push(fieldError.invalid(fp.child('datasetName').toString(), name, "must not contain '/'"))
      return errs
    },
  ],
  [
    'persistentVolumeClaim',
    'persistentVolumeClaim',
    (s, p) => requiredAll(p.child('persistentVolumeClaim'), [['claimName', s.persistentVolumeClaim!.claimName]]),
  ],
  [
    'rbd',
    'rbd',
    (s, p) => {
      const rp = p.child('rbd')
      const errs: FieldError[] = []
      if (list(s.rbd!.monitors).length === 0) errs.push(fieldError.required(rp.child('monitors').toString()))
      if (!s.rbd!.image) errs.push(fieldError.required(rp.child('image').toString()))
      return errs
    },
  ],
  [
    'cinder',
    'cinder',
    (s, p) => {
      const cp = p.child('cinder')
      const errs = requiredAll(cp, [['volumeID', s.cinder!.volumeID]])
      if (s.cinder!.secretRef && !s.cinder!.secretRef.name)
        errs.push(fieldError.required(cp.child('secretRef').child('name').toString()))
      return errs
    },
  ],
  [
    'cephfs',
    'cephFS',
    (s, p) =>
      list(s.cephfs!.monitors).length === 0
        ? [fieldError.required(p.child('cephfs').child('monitors').toString())]
        : [],
  ],
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
  [
    'fc',
    'fc',
    (s, p) => {
      const fp = p.child('fc')
      const fc = s.fc!
      const wwns = list(fc.targetWWNs)
      const wwids = list(fc.wwids)
      const errs: FieldError[] = []
      if (wwns.length < 1 && wwids.length < 1) {
        errs.push(
          fieldError.required(
            fp.child('targetWWNs').toString(),
            'must specify either targetWWNs or wwids, but not both',
          ),
        )
      }
      if (wwns.length !== 0 && wwids.length !== 0) {
        errs.push(
          fieldError.invalid(
            fp.child('targetWWNs').toString(),
            wwns,
            'targetWWNs and wwids can not be specified simultaneously',
          ),
        )
      }
      if (wwns.length !== 0) {
        if (fc.lun === undefined)
          errs.push(fieldError.required(fp.child('lun').toString(), 'lun is required if targetWWNs is specified'))
        else if (fc.lun < 0 || fc.lun > 255)
          errs.push(fieldError.invalid(fp.child('lun').toString(), fc.lun, inclusiveRangeError(0, 255)))
      }
      return errs
    },
  ],
  [
    'flexVolume',
    'flexVolume',
    (s, p) => {
      const fp = p.child('flexVolume')
      const errs = requiredAll(fp, [['driver', s.flexVolume!.driver]])
      for (const k of Object.keys(s.flexVolume!.options ?? {})) {
        const slash = k.indexOf('/')
        const ns = `.${(slash >= 0 ? k.slice(0, slash) : k).toLowerCase()}`
        if (ns.endsWith('.kubernetes.io') || ns.endsWith('.k8s.io')) {
          errs.push(
            fieldError.invalid(
              fp.child('options').key(k).toString(),
              k,
              'kubernetes.io and k8s.io namespaces are reserved',
            ),
          )
        }
      }
      return errs
    },
  ],
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
  [
    'azureFile',
    'azureFile',
    (s, p) =>
      requiredAll(p.child('azureFile'), [
        ['secretName', s.azureFile!.secretName],
        ['shareName', s.azureFile!.shareName],
      ]),
  ],
  [
    'vsphereVolume',
    'vsphereVolume',
    (s, p) => requiredAll(p.child('vsphereVolume'), [['volumePath', s.vsphereVolume!.volumePath]]),
  ],
  [
    'photonPersistentDisk',
    'photonPersistentDisk',
    (s, p) => requiredAll(p.child('photonPersistentDisk'), [['pdID', s.photonPersistentDisk!.pdID]]),
  ],
  [
    'portworxVolume',
    'portworxVolume',
    (s, p) => requiredAll(p.child('portworxVolume'), [['volumeID', s.portworxVolume!.volumeID]]),
  ],
  ['azureDisk', 'azureDisk', (s, p) => validateAzureDisk(s.azureDisk!, p.child('azureDisk'))],
  [
    'storageos',
    'storageos',
    (s, p) => {
      const sp = p.child('storageos')
      const so = s.storageos!
      const errs: FieldError[] = []
      if (!so.volumeName) errs.push(fieldError.required(sp.child('volumeName').toString()))
      else errs.push(...validateDNS1123Label(so.volumeName, sp.child('volumeName')))
      if (so.volumeNamespace) errs.push(...validateDNS1123Label(so.volumeNamespace, sp.child('volumeNamespace')))
      if (so.secretRef && !so.secretRef.name)
        errs.push(fieldError.required(sp.child('secretRef').child('name').toString()))
      return errs
    },
  ],
  ['projected', 'projected', (s, p) => validateProjected(s.projected!, p.child('projected'))],
  [
    'scaleIO',
    'scaleIO',
    (s, p) =>
      requiredAll(p.child('scaleIO'), [
        ['gateway', s.scaleIO!.gateway],
        ['system', s.scaleIO!.system],
        ['volumeName', s.scaleIO!.volumeName],
      ]),
  ],
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
