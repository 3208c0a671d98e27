// Protobuf message descriptor of scheduling.k8s.io/v1 PriorityClass (`kubectl create priorityclass` sends it as
// application/vnd.kubernetes.protobuf), per k8s.io/api scheduling/v1 generated.proto (release-1.33), in
// ./messages.ts's notation; that file spreads these tables into its own.

export const SCHEDULING_MESSAGES: Record<string, Record<number, string>> = {
  PriorityClass: {
    1: 'metadata:ObjectMeta',
    // `json:"value"` without omitempty: a 0 value is sent.
    2: 'value:int32!',
    3: 'globalDefault:bool',
    4: 'description:string',
    // A pointer in Go: present means set.
    5: 'preemptionPolicy:string!',
  },
}

/** Top-level message per "apiVersion kind". */
export const SCHEDULING_KINDS: Record<string, string> = {
  'scheduling.k8s.io/v1 PriorityClass': 'PriorityClass',
}
