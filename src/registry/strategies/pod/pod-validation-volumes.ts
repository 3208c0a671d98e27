// Volume validation (ValidateVolumes and validateVolumeSource with every source), after kube-apiserver 1.33
// pkg/apis/core/validation. Paths keep kube's quirks: a second source is reported at `downwarAPI` and `cephFS`, a GCE
// disk is validated under `persistentDisk`, and downward API files are reported on the source, not the item.
import { fieldError, type FieldError, type FieldPath } from '../../field-errors'
import { isDNS1123Subdomain } from '../../validation/names'
import { validateAnnotations, validateLabels } from '../../validation/object-meta'
import { goQuote } from '../../go-strings'
import {
  FILE_MODE_ERROR_MSG,
  IS_NOT_POSITIVE_ERROR_MSG,
  goLabelSelector,
  goPtr,
  goStruct,
  inclusiveRangeError,
  invalidGo,
  isNegativeQuantity,
  isPositiveQuantity,
  list,
  nameIsSubdomain,
  quantityString,
  str,
  validateDNS1123Label,
  validateLabelSelector,
} from './pod-validation-formats'
import {
  VOLUME_FIELD_PATHS, validateContainerResourceFieldSelector, validateLocalDescendingPath, validateLocalNonReservedPath,
  validateObjectFieldSelector, validatePathNoBacksteps, validatePullPolicy,
} from './pod-validation-containers'
import type { DownwardAPIVolumeFile, KeyToPath, PersistentVolumeClaimSpec, ProjectedVolumeSource, Volume } from './pod-types'
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
      errs.push(fieldError.invalid(p.child('persistentVolumeClaim').child('claimName').toString(), claim, 'must not reference a PVC that gets created for an ephemeral volume'))
    }
  })
  return { volumes: valid, errors: errs }
}

type SourceCheck = [key: keyof Source, forbiddenAt: string, check: (src: Source, path: FieldPath, volName: string, podName: string) => FieldError[]]

// kube's order; the second element is where a second source is reported (typos included).
const SOURCES: SourceCheck[] = [
  ['emptyDir', 'emptyDir', (s, p) => {
    const limit = s.emptyDir!.sizeLimit
    return limit !== undefined && isNegativeQuantity(limit)
      ? [fieldError.forbidden(p.child('emptyDir').child('sizeLimit').toString(), 'SizeLimit field must be a valid resource quantity')]
      : []
  }],
  ['hostPath', 'hostPath', (s, p) => validateHostPath(s.hostPath!, p.child('hostPath'))],
  ['gitRepo', 'gitRepo', (s, p) => {
    const errs: FieldError[] = []
    const g = s.gitRepo!
    if (!g.repository) errs.push(fieldError.required(p.child('gitRepo').child('repository').toString()))
    errs.push(...validateLocalDescendingPath(str(g.directory), p.child('gitRepo').child('directory')))
    return errs
  }],
  ['gcePersistentDisk', 'gcePersistentDisk', (s, p) => validateDisk(s.gcePersistentDisk!.pdName, 'pdName', s.gcePersistentDisk!.partition, p.child('persistentDisk'))],
  ['awsElasticBlockStore', 'awsElasticBlockStore', (s, p) => validateDisk(s.awsElasticBlockStore!.volumeID, 'volumeID', s.awsElasticBlockStore!.partition, p.child('awsElasticBlockStore'))],
  ['secret', 'secret', (s, p) => {
    const sp = p.child('secret')
    const errs: FieldError[] = []
    if (!s.secret!.secretName) errs.push(fieldError.required(sp.child('secretName').toString()))
    errs.push(...validateMode(s.secret!.defaultMode, sp.child('defaultMode')))
    list(s.secret!.items).forEach((kp, i) => errs.push(...validateKeyToPath(kp, sp.child('items').index(i))))
    return errs
  }],
  ['nfs', 'nfs', (s, p) => {
    const np = p.child('nfs')
    const errs: FieldError[] = []
    if (!s.nfs!.server) errs.push(fieldError.required(np.child('server').toString()))
    if (!s.nfs!.path) errs.push(fieldError.required(np.child('path').toString()))
    if (!str(s.nfs!.path).startsWith('/')) errs.push(fieldError.invalid(np.child('path').toString(), str(s.nfs!.path), 'must be an absolute path'))
    return errs
  }],
  ['iscsi', 'iscsi', (s, p, volName) => validateISCSI(s.iscsi!, p.child('iscsi'), volName, p)],
  ['glusterfs', 'glusterfs', (s, p) => requiredAll(p.child('glusterfs'), [['endpoints', s.glusterfs!.endpoints], ['path', s.glusterfs!.path]])],
  ['flocker', 'flocker', (s, p) => {
    const fp = p.child('flocker')
    const f = s.flocker!
    const name = str(f.datasetName)
    const uuid = str(f.datasetUUID)
    const errs: FieldError[] = []
    if (!name && !uuid) errs.push(fieldError.required(fp.toString(), 'one of datasetName and datasetUUID is required'))
    if (name && uuid) errs.push(fieldError.invalid(fp.toString(), 'resource', 'datasetName and datasetUUID can not be specified simultaneously'))
    if (name.includes('/')) errs.push(fieldError.invalid(fp.child('datasetName').toString(), name, "must not contain '/'"))
    return errs
  }],
  ['persistentVolumeClaim', 'persistentVolumeClaim', (s, p) => requiredAll(p.child('persistentVolumeClaim'), [['claimName', s.persistentVolumeClaim!.claimName]])],
  ['rbd', 'rbd', (s, p) => {
    const rp = p.child('rbd')
    const errs: FieldError[] = []
    if (list(s.rbd!.monitors).length === 0) errs.push(fieldError.required(rp.child('monitors').toString()))
    if (!s.rbd!.image) errs.push(fieldError.required(rp.child('image').toString()))
    return errs
  }],
  ['cinder', 'cinder', (s, p) => {
    const cp = p.child('cinder')
    const errs = requiredAll(cp, [['volumeID', s.cinder!.volumeID]])
    if (s.cinder!.secretRef && !s.cinder!.secretRef.name) errs.push(fieldError.required(cp.child('secretRef').child('name').toString()))
    return errs
  }],
  ['cephfs', 'cephFS', (s, p) =>
    list(s.cephfs!.monitors).length === 0 ? [fieldError.required(p.child('cephfs').child('monitors').toString())] : []],
  ['quobyte', 'quobyte', (s, p) => validateQuobyte(s.quobyte!, p.child('quobyte'))],
  ['downwardAPI', 'downwarAPI', (s, p) => {
    const dp = p.child('downwardAPI')
    const errs = validateMode(s.downwardAPI!.defaultMode, dp.child('defaultMode'))
    for (const file of list(s.downwardAPI!.items)) errs.push(...validateDownwardAPIVolumeFile(file, dp))
    return errs
  }],
  ['fc', 'fc', (s, p) => {
    const fp = p.child('fc')
    const fc = s.fc!
    const wwns = list(fc.targetWWNs)
    const wwids = list(fc.wwids)
    const errs: FieldError[] = []
    if (wwns.length < 1 && wwids.length < 1) {
      errs.push(fieldError.required(fp.child('targetWWNs').toString(), 'must specify either targetWWNs or wwids, but not both'))
    }
    if (wwns.length !== 0 && wwids.length !== 0) {
      errs.push(fieldError.invalid(fp.child('targetWWNs').toString(), wwns, 'targetWWNs and wwids can not be specified simultaneously'))
    }
    if (wwns.length !== 0) {
      if (fc.lun === undefined) errs.push(fieldError.required(fp.child('lun').toString(), 'lun is required if targetWWNs is specified'))
      else if (fc.lun < 0 || fc.lun > 255) errs.push(fieldError.invalid(fp.child('lun').toString(), fc.lun, inclusiveRangeError(0, 255)))
    }
    return errs
  }],
  ['flexVolume', 'flexVolume', (s, p) => {
    const fp = p.child('flexVolume')
    const errs = requiredAll(fp, [['driver', s.flexVolume!.driver]])
    for (const k of Object.keys(s.flexVolume!.options ?? {})) {
      const slash = k.indexOf('/')
      const ns = `.${(slash >= 0 ? k.slice(0, slash) : k).toLowerCase()}`
      if (ns.endsWith('.kubernetes.io') || ns.endsWith('.k8s.io')) {
        errs.push(fieldError.invalid(fp.child('options').key(k).toString(), k, 'kubernetes.io and k8s.io namespaces are reserved'))
      }
    }
    return errs
  }],
  ['configMap', 'configMap', (s, p) => {
    const cp = p.child('configMap')
    const errs: FieldError[] = []
    if (!s.configMap!.name) errs.push(fieldError.required(cp.child('name').toString()))
    errs.push(...validateMode(s.configMap!.defaultMode, cp.child('defaultMode')))
    list(s.configMap!.items).forEach((kp, i) => errs.push(...validateKeyToPath(kp, cp.child('items').index(i))))
    return errs
  }],
  ['azureFile', 'azureFile', (s, p) => requiredAll(p.child('azureFile'), [['secretName', s.azureFile!.secretName], ['shareName', s.azureFile!.shareName]])],
  ['vsphereVolume', 'vsphereVolume', (s, p) => requiredAll(p.child('vsphereVolume'), [['volumePath', s.vsphereVolume!.volumePath]])],
  ['photonPersistentDisk', 'photonPersistentDisk', (s, p) => requiredAll(p.child('photonPersistentDisk'), [['pdID', s.photonPersistentDisk!.pdID]])],
  ['portworxVolume', 'portworxVolume', (s, p) => requiredAll(p.child('portworxVolume'), [['volumeID', s.portworxVolume!.volumeID]])],
  ['azureDisk', 'azureDisk', (s, p) => validateAzureDisk(s.azureDisk!, p.child('azureDisk'))],
  ['storageos', 'storageos', (s, p) => {
    const sp = p.child('storageos')
    const so = s.storageos!
    const errs: FieldError[] = []
    if (!so.volumeName) errs.push(fieldError.required(sp.child('volumeName').toString()))
    else errs.push(...validateDNS1123Label(so.volumeName, sp.child('volumeName')))
    if (so.volumeNamespace) errs.push(...validateDNS1123Label(so.volumeNamespace, sp.child('volumeNamespace')))
    if (so.secretRef && !so.secretRef.name) errs.push(fieldError.required(sp.child('secretRef').child('name').toString()))
    return errs
  }],
  ['projected', 'projected', (s, p) => validateProjected(s.projected!, p.child('projected'))],
  ['scaleIO', 'scaleIO', (s, p) => requiredAll(p.child('scaleIO'), [['gateway', s.scaleIO!.gateway], ['system', s.scaleIO!.system], ['volumeName', s.scaleIO!.volumeName]])],
  ['csi', 'csi', (s, p) => {
    const cp = p.child('csi')
    const errs = validateCSIDriverName(str(s.csi!.driver), cp.child('driver'))
    const ref = s.csi!.nodePublishSecretRef
    if (ref) {
      if (!ref.name) errs.push(fieldError.required(cp.child('nodePublishSecretRef').child('name').toString()))
      else errs.push(...nameIsSubdomain(ref.name, false).map((m) => fieldError.invalid(cp.child('name').toString(), ref.name, m)))
    }
    return errs
  }],
  ['ephemeral', 'ephemeral', (s, p, volName, podName) => {
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
      for (const m of isDNS1123Subdomain(pvc)) errs.push(fieldError.invalid(p.child('name').toString(), volName, `PVC name ${goQuote(pvc)}: ${m}`))
    }
    return errs
  }],
  ['image', 'image', (s, p) => {
    const ip = p.child('image')
    const errs: FieldError[] = []
    if (!s.image!.reference) errs.push(fieldError.required(ip.child('reference').toString()))
    errs.push(...validatePullPolicy(str(s.image!.pullPolicy), ip.child('pullPolicy')))
    return errs
  }],
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

function requiredAll(path: FieldPath, fields: [string, string | undefined][]): FieldError[] {
  return fields.filter(([, v]) => !v).map(([k]) => fieldError.required(path.child(k).toString()))
}

const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket']

function validateHostPath(hp: NonNullable<Source['hostPath']>, path: FieldPath): FieldError[] {
  if (!hp.path) return [fieldError.required(path.child('path').toString())]
  const errs = validatePathNoBacksteps(hp.path, path.child('path'))
  if (hp.type !== undefined && !HOST_PATH_TYPES.includes(hp.type)) {
    errs.push(fieldError.notSupported(path.child('type').toString(), hp.type, HOST_PATH_TYPES))
  }
  return errs
}

function validateDisk(id: string | undefined, idField: string, partition: number | undefined, path: FieldPath): FieldError[] {
  const errs = requiredAll(path, [[idField, id]])
  const part = partition ?? 0
  if (part < 0 || part > 255) errs.push(fieldError.invalid(path.child('partition').toString(), part, inclusiveRangeError(1, 255)))
  return errs
}

function validateMode(mode: number | undefined, path: FieldPath): FieldError[] {
  if (mode !== undefined && (mode > 0o777 || mode < 0)) return [fieldError.invalid(path.toString(), mode, FILE_MODE_ERROR_MSG)]
  return []
}

function validateKeyToPath(kp: KeyToPath, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (!kp.key) errs.push(fieldError.required(path.child('key').toString()))
  if (!kp.path) errs.push(fieldError.required(path.child('path').toString()))
  errs.push(...validateLocalNonReservedPath(str(kp.path), path.child('path')))
  errs.push(...validateMode(kp.mode, path.child('mode')))
  return errs
}

const IQN = /iqn\.\d{4}-\d{2}\.([a-zA-Z0-9\-.]+)(:[^,;*&$|\s]+)$/
const EUI = /^eui.[a-zA-Z0-9]{16}$/
const NAA = /^naa.[a-zA-Z0-9]{32}$/

function iscsiNameErrors(value: string, path: string, startDetail: string): FieldError[] {
  const errs: FieldError[] = []
  const prefixed = value.startsWith('iqn') || value.startsWith('eui') || value.startsWith('naa')
  if (!prefixed) errs.push(fieldError.invalid(path, value, startDetail))
  // Go's iqn regex is anchored only at the end, so it may match past the prefix.
  if (value.startsWith('iqn') && !IQN.test(value)) errs.push(fieldError.invalid(path, value, 'must be valid format'))
  else if (value.startsWith('eui') && !EUI.test(value)) errs.push(fieldError.invalid(path, value, 'must be valid format'))
  else if (value.startsWith('naa') && !NAA.test(value)) errs.push(fieldError.invalid(path, value, 'must be valid format'))
  return errs
}

function validateISCSI(iscsi: NonNullable<Source['iscsi']>, path: FieldPath, volName: string, volPath: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (!iscsi.targetPortal) errs.push(fieldError.required(path.child('targetPortal').toString()))
  if (!iscsi.iqn) errs.push(fieldError.required(path.child('iqn').toString()))
  else errs.push(...iscsiNameErrors(iscsi.iqn, path.child('iqn').toString(), 'must be valid format starting with iqn, eui, or naa'))
  if (iscsi.lun < 0 || iscsi.lun > 255) errs.push(fieldError.invalid(path.child('lun').toString(), iscsi.lun, inclusiveRangeError(0, 255)))
  if ((iscsi.chapAuthDiscovery || iscsi.chapAuthSession) && !iscsi.secretRef) errs.push(fieldError.required(path.child('secretRef').toString()))
  if (iscsi.initiatorName !== undefined) {
    errs.push(...iscsiNameErrors(iscsi.initiatorName, path.child('initiatorname').toString(), 'must be valid format starting with iqn, eui, or naa'))
  }
  if (iscsi.initiatorName !== undefined && `${volName}:${str(iscsi.targetPortal)}`.length > 64) {
    const detail = 'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.'
    errs.push(fieldError.invalid(volPath.child('name').toString(), volName, detail))
  }
  return errs
}

function validateQuobyte(q: NonNullable<Source['quobyte']>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const detail = 'must be a host:port pair or multiple pairs separated by commas'
  if (!q.registry) errs.push(fieldError.required(path.child('registry').toString(), detail))
  else if (str(q.tenant).length >= 65) {
    errs.push(fieldError.required(path.child('tenant').toString(), 'must be a UUID and may not exceed a length of 64 characters'))
  } else {
    for (const pair of q.registry.split(',')) {
      if (!/^(\[[^\]]*\]|[^:[\]]*):[^:]*$/.test(pair)) errs.push(fieldError.invalid(path.child('registry').toString(), q.registry, detail))
    }
  }
  if (!q.volume) errs.push(fieldError.required(path.child('volume').toString()))
  return errs
}

const CACHING_MODES = ['None', 'ReadOnly', 'ReadWrite']
const DISK_KINDS = ['Dedicated', 'Managed', 'Shared']

function validateAzureDisk(d: NonNullable<Source['azureDisk']>, path: FieldPath): FieldError[] {
  const errs = requiredAll(path, [['diskName', d.diskName], ['diskURI', d.diskURI]])
  if (d.cachingMode !== undefined && !CACHING_MODES.includes(d.cachingMode)) {
    errs.push(fieldError.notSupported(path.child('cachingMode').toString(), d.cachingMode, CACHING_MODES))
  }
  if (d.kind !== undefined && !DISK_KINDS.includes(d.kind)) errs.push(fieldError.notSupported(path.child('kind').toString(), d.kind, DISK_KINDS))
  const uri = str(d.diskURI)
  if (d.kind === 'Managed' && !uri.startsWith('/subscriptions/')) {
    errs.push(fieldError.notSupported(path.child('diskURI').toString(), uri, ['/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}']))
  }
  if (d.kind !== undefined && d.kind !== 'Managed' && !uri.startsWith('https://')) {
    errs.push(fieldError.notSupported(path.child('diskURI').toString(), uri, ['https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd']))
  }
  return errs
}

/** validateDownwardAPIVolumeFile; `path` is the source (kube does not index the items). */
function validateDownwardAPIVolumeFile(file: DownwardAPIVolumeFile, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (!file.path) errs.push(fieldError.required(path.child('path').toString()))
  errs.push(...validateLocalNonReservedPath(str(file.path), path.child('path')))
  if (file.fieldRef) {
    errs.push(...validateObjectFieldSelector(file.fieldRef, VOLUME_FIELD_PATHS, path.child('fieldRef')))
    if (file.resourceFieldRef) {
      errs.push(fieldError.invalid(path.toString(), 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'))
    }
  } else if (file.resourceFieldRef) {
    errs.push(...validateContainerResourceFieldSelector(file.resourceFieldRef, path.child('resourceFieldRef'), true))
  } else {
    errs.push(fieldError.required(path.toString(), 'one of fieldRef and resourceFieldRef is required'))
  }
  errs.push(...validateMode(file.mode, path.child('mode')))
  return errs
}

/** validateProjectedVolumeSource: each source holds exactly one projection; file paths do not collide. */
function validateProjected(projection: ProjectedVolumeSource, path: FieldPath): FieldError[] {
  const errs = validateMode(projection.defaultMode, path.child('defaultMode'))
  const paths = new Set<string>()
  const claim = (p: string, value: unknown) => {
    if (paths.has(p)) errs.push(fieldError.invalid(path.toString(), value, 'conflicting duplicate paths'))
    else paths.add(p)
  }
  list(projection.sources).forEach((source, i) => {
    const sp = path.child('sources').index(i)
    let n = 0
    for (const key of ['secret', 'configMap'] as const) {
      const src = source[key]
      if (!src) continue
      n++
      const kp = sp.child(key)
      if (!src.name) errs.push(fieldError.required(kp.child('name').toString()))
      list(src.items).forEach((item, j) => {
        errs.push(...validateKeyToPath(item, kp.child('items').index(j)))
        if (item.path) claim(item.path, str(src.name))
      })
    }
    if (source.downwardAPI) {
      n++
      for (const file of list(source.downwardAPI.items)) {
        errs.push(...validateDownwardAPIVolumeFile(file, sp.child('downwardAPI')))
        if (file.path) claim(file.path, file.path)
      }
    }
    const token = source.serviceAccountToken
    if (token) {
      n++
      const tp = sp.child('serviceAccountToken')
      const seconds = token.expirationSeconds ?? 0
      if (seconds < 600) errs.push(fieldError.invalid(tp.child('expirationSeconds').toString(), seconds, 'may not specify a duration less than 10 minutes'))
      if (seconds > 2 ** 32) errs.push(fieldError.invalid(tp.child('expirationSeconds').toString(), seconds, 'may not specify a duration larger than 2^32 seconds'))
      // Reported on the projected source's path, not the token's, as kube does.
      if (!token.path) errs.push(fieldError.required(path.child('path').toString()))
      else errs.push(...validateLocalNonReservedPath(token.path, path.child('path')))
    }
    const ctb = source.clusterTrustBundle
    if (ctb) {
      n++
      const cp = sp.child('clusterTrustBundle')
      const usingName = ctb.name !== undefined
      const usingSigner = ctb.signerName !== undefined
      if (usingName && usingSigner) {
        errs.push(invalidGo(cp.toString(), goStruct('core.ClusterTrustBundleProjection', [['Name', goPtr('*string', ctb.name)], ['SignerName', goPtr('*string', ctb.signerName)], ['LabelSelector', goPtr('*v1.LabelSelector', ctb.labelSelector)], ['Path', goQuote(str(ctb.path))], ['Optional', goPtr('*bool', ctb.optional)]]), 'only one of name and signerName may be used'))
      } else if (usingName) {
        if (ctb.name === '') errs.push(fieldError.required(cp.child('name').toString(), 'must be a valid object name'))
        if (ctb.labelSelector) {
          errs.push(invalidGo(cp.child('labelSelector').toString(), goLabelSelector(ctb.labelSelector), 'labelSelector must be unset if name is specified'))
        }
      } else if (usingSigner) {
        if (ctb.signerName === '') errs.push(fieldError.required(cp.child('signerName').toString(), 'must be a valid signer name'))
        errs.push(...validateLabelSelector(ctb.labelSelector, cp.child('labelSelector')))
      } else {
        errs.push(fieldError.required(cp.toString(), 'either name or signerName must be specified'))
      }
      const ctbPath = str(ctb.path)
      if (!ctbPath) errs.push(fieldError.required(cp.child('path').toString()))
      errs.push(...validateLocalNonReservedPath(ctbPath, cp.child('path')))
      claim(ctbPath, ctbPath)
    }
    if (source.podCertificate) n++
    if (n > 1) errs.push(fieldError.forbidden(sp.toString(), 'may not specify more than 1 volume type per source'))
  })
  return errs
}

/** ValidateCSIDriverName. */
function validateCSIDriverName(driver: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  if (driver.length === 0) errs.push(fieldError.required(path.toString()))
  if (driver.length > 63) errs.push(fieldError.tooLong(path.toString(), 63))
  errs.push(...isDNS1123Subdomain(driver.toLowerCase()).map((m) => fieldError.invalid(path.toString(), driver, m)))
  return errs
}

// ObjectMeta's fields in Go struct order, with the lower-cased Go name kube's allow-list error uses.
const TEMPLATE_META_FIELDS: [keyof ObjectMeta, string][] = [
  ['name', 'name'], ['generateName', 'generateName'], ['namespace', 'namespace'], ['selfLink', 'selfLink'], ['uid', 'uID'],
  ['resourceVersion', 'resourceVersion'], ['generation', 'generation'], ['creationTimestamp', 'creationTimestamp'],
  ['deletionTimestamp', 'deletionTimestamp'], ['deletionGracePeriodSeconds', 'deletionGracePeriodSeconds'],
  ['ownerReferences', 'ownerReferences'], ['finalizers', 'finalizers'], ['managedFields', 'managedFields'],
]

/** ValidateTemplateObjectMeta: a claim template may only carry labels and annotations. */
function validateTemplateObjectMeta(meta: ObjectMeta | undefined, path: FieldPath): FieldError[] {
  if (!meta) return []
  const errs = [...validateAnnotations(meta.annotations, path.child('annotations')), ...validateLabels(meta.labels, path.child('labels'))]
  for (const [key, goName] of TEMPLATE_META_FIELDS) {
    const v = meta[key]
    if (v !== undefined && v !== '' && v !== 0 && !(Array.isArray(v) && v.length === 0)) {
      errs.push(fieldError.forbidden(path.child(goName).toString(), 'cannot be set'))
    }
  }
  return errs
}

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod']

/** ValidatePersistentVolumeClaimSpec, for the claim template of a generic ephemeral volume. */
function validatePVCSpec(spec: PersistentVolumeClaimSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = []
  const modes = list(spec.accessModes)
  if (modes.length === 0) errs.push(fieldError.required(path.child('accessModes').toString(), 'at least 1 access mode is required'))
  if (spec.selector) errs.push(...validateLabelSelector(spec.selector, path.child('selector')))
  let rwop = false
  let other = false
  for (const mode of modes) {
    if (!ACCESS_MODES.includes(mode)) errs.push(fieldError.notSupported(path.child('accessModes').toString(), mode, ACCESS_MODES))
    if (mode === 'ReadWriteOncePod') rwop = true
    else if (ACCESS_MODES.includes(mode)) other = true
  }
  if (rwop && other) errs.push(fieldError.forbidden(path.child('accessModes').toString(), 'may not use ReadWriteOncePod with other access modes'))
  const storagePath = path.child('resources').key('storage').toString()
  const storage = spec.resources?.requests?.storage
  if (storage === undefined) errs.push(fieldError.required(storagePath))
  else if (!isPositiveQuantity(storage)) errs.push(fieldError.invalid(storagePath, quantityString(storage), IS_NOT_POSITIVE_ERROR_MSG))
  if (spec.storageClassName) {
    errs.push(...nameIsSubdomain(spec.storageClassName, false).map((m) => fieldError.invalid(path.child('storageClassName').toString(), spec.storageClassName, m)))
  }
  if (spec.volumeMode !== undefined && spec.volumeMode !== 'Block' && spec.volumeMode !== 'Filesystem') {
    errs.push(fieldError.notSupported(path.child('volumeMode').toString(), spec.volumeMode, ['Block', 'Filesystem']))
  }
  return errs
}
