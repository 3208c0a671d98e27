// The shape the agent reads kube objects in: JSON from the API, read field by field where it is used.
// biome-ignore lint/suspicious/noExplicitAny: API objects are walked field by field, as the kubelet's typed structs would be
export type Obj = Record<string, any>
