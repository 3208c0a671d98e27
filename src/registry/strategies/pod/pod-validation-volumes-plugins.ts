// The in-tree volume plugins of storage systems (NFS, GlusterFS, Flocker, RBD, Cinder, CephFS, Fibre Channel,
// FlexVolume, Azure File, vSphere, Photon, Portworx, StorageOS, ScaleIO): each source's checks, which
// validateVolumeSource's table (pod-validation-volumes.ts) runs in kube's order, after kube-apiserver 1.33
// pkg/apis/core/validation.
import { fieldError, type FieldError, type FieldPath } from '../../field-errors'
import { inclusiveRangeError, list, str, validateDNS1123Label } from './pod-validation-formats'
import { requiredAll } from './pod-validation-volumes-storage'
import type { Volume } from './pod-types'

/** A volume source's checks: its path, the volume's name and the pod's (for messages that name them). */
type SourceCheckFn = (src: Omit<Volume, 'name'>, path: FieldPath, volName: string, podName: string) => FieldError[]

/** Each storage system's source, keyed as the Volume field that holds it. */
export const PLUGIN_CHECKS = {
  nfs: (s, p) => {
    const np = p.child('nfs')
    const errs: FieldError[] = []
    if (!s.nfs!.server) errs.push(fieldError.required(np.child('server').toString()))
    if (!s.nfs!.path) errs.push(fieldError.required(np.child('path').toString()))
    if (!str(s.nfs!.path).startsWith('/'))
      errs.push(fieldError.invalid(np.child('path').toString(), str(s.nfs!.path), 'must be an absolute path'))
    return errs
  },
  glusterfs: (s, p) =>
    requiredAll(p.child('glusterfs'), [
      ['endpoints', s.glusterfs!.endpoints],
      ['path', s.glusterfs!.path],
    ]),
  flocker: (s, p) => {
    const fp = p.child('flocker')
    const f = s.flocker!
    const name = str(f.datasetName)
    const uuid = str(f.datasetUUID)
    const errs: FieldError[] = []
    if (!name && !uuid) errs.push(fieldError.required(fp.toString(), 'one of datasetName and datasetUUID is required'))
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
  rbd: (s, p) => {
    const rp = p.child('rbd')
    const errs: FieldError[] = []
    if (list(s.rbd!.monitors).length === 0) errs.push(fieldError.required(rp.child('monitors').toString()))
    if (!s.rbd!.image) errs.push(fieldError.required(rp.child('image').toString()))
    return errs
  },
  cinder: (s, p) => {
    const cp = p.child('cinder')
    const errs = requiredAll(cp, [['volumeID', s.cinder!.volumeID]])
    if (s.cinder!.secretRef && !s.cinder!.secretRef.name)
      errs.push(fieldError.required(cp.child('secretRef').child('name').toString()))
    return errs
  },
  cephfs: (s, p) =>
    list(s.cephfs!.monitors).length === 0 ? [fieldError.required(p.child('cephfs').child('monitors').toString())] : [],
  fc: (s, p) => {
    const fp = p.child('fc')
    const fc = s.fc!
    const wwns = list(fc.targetWWNs)
    const wwids = list(fc.wwids)
    const errs: FieldError[] = []
    if (wwns.length < 1 && wwids.length < 1) {
      errs.push(
        fieldError.required(fp.child('targetWWNs').toString(), 'must specify either targetWWNs or wwids, but not both'),
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
  flexVolume: (s, p) => {
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
  azureFile: (s, p) =>
    requiredAll(p.child('azureFile'), [
      ['secretName', s.azureFile!.secretName],
      ['shareName', s.azureFile!.shareName],
    ]),
  vsphereVolume: (s, p) => requiredAll(p.child('vsphereVolume'), [['volumePath', s.vsphereVolume!.volumePath]]),
  photonPersistentDisk: (s, p) =>
    requiredAll(p.child('photonPersistentDisk'), [['pdID', s.photonPersistentDisk!.pdID]]),
  portworxVolume: (s, p) => requiredAll(p.child('portworxVolume'), [['volumeID', s.portworxVolume!.volumeID]]),
  storageos: (s, p) => {
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
  scaleIO: (s, p) =>
    requiredAll(p.child('scaleIO'), [
      ['gateway', s.scaleIO!.gateway],
      ['system', s.scaleIO!.system],
      ['volumeName', s.scaleIO!.volumeName],
    ]),
} satisfies Record<string, SourceCheckFn>
