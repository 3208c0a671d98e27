// The ObjectMeta field docs kube's printers give the Name and Age columns of every built-in kind's Table
// (metav1.ObjectMeta{}.SwaggerDoc()["name"] and ["creationTimestamp"], as rest.NewDefaultTableConvertor does too): the
// whole swagger text of the field, from apimachinery release-1.33's types_swagger_doc_generated.go. The other columns'
// descriptions sit with each kind's table, as kube's printers.go writes them (a field's whole SwaggerDoc, or kube's
// own sentence).
export const NAME_DOC =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names'

export const CREATION_DOC =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata'
