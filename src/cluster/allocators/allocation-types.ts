// What crosses RPC between a namespace host planning a service change and the cluster host's allocators.

/** What a planned service change needs reserved, in the order the namespace side maps answers back to fields. */
export interface AllocationRequest {
  /** Cluster IPs: an address to reserve as asked, or '' for any free one. */
  clusterIPs: string[]
  /** Node ports: a port to reserve as asked, or 0 for any free one. */
  nodePorts: number[]
}

/** Values a service holds (or that are to be released). */
export interface Allocated {
  clusterIPs: string[]
  nodePorts: number[]
}

export type Pool = 'ip' | 'nodeport'

/** Why a request could not be met; index points into the request's list for that pool. */
export interface AllocationFailure {
  pool: Pool
  index: number
  /** The value asked for ('' or 0 for "any"). */
  requested: string | number
  /** The range has no free value left (kube answers 500 for this, Invalid for the others). */
  full: boolean
  /** kube's allocator error text: "provided IP is already allocated", "range is full", ... */
  message: string
}

export type ReserveAnswer = ({ ok: true } & Allocated) | { ok: false; failure: AllocationFailure }

/** One row of the allocation table, for tests and operators. */
export interface AllocationRow {
  pool: Pool
  value: string | number
  owner: string
  reservedAt: number
  verified: boolean
}

/** Who holds what according to the stored services: the input of the repair pass. */
export interface Holding extends Allocated {
  owner: string
}
