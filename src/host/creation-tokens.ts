// Creation tokens (the Idempotency-Key header, see README): a create claims its token when it commits, and a
// repeat of the token answers AlreadyExists pointing at what the first create made.
import { statuses, type Status } from '../registry/status'
import { resourceByPlural } from '../registry/resources'
import type { TokenStore } from './object-store'

/** The answer to a repeated creation token: AlreadyExists pointing at what the first create made. */
function tokenConflict(token: string, seen: { resource: string; name: string; uid: string }, scope: string): Status {
  const def = resourceByPlural(seen.resource)
  const selfLink = def?.namespaced
    ? `/api/v1/namespaces/${scope}/${seen.resource}/${seen.name}`
    : `/api/v1/${seen.resource}/${seen.name}`
  const s = statuses.alreadyExists({ resource: seen.resource }, seen.name)
  s.message = `${seen.resource} ${JSON.stringify(seen.name)} already exists: it was created by an earlier request with Idempotency-Key ${JSON.stringify(token)} (${selfLink})`
  s.details = { ...s.details, uid: seen.uid }
  s.metadata = { ...s.metadata, selfLink } as Status['metadata']
  return s
}

/**
 * The tokens of one host: those claimed (in its local store) and those of creates planned but not yet committed.
 * Each create holds its reservation under its own symbol, so a re-plan (a batch deferred it) does not see itself as a
 * twin.
 */
export class CreationTokens {
  /** Tokens of creates planned but not yet committed: a duplicate queued behind its twin must see them. */
  private readonly pending = new Map<string, { resource: string; name: string; uid: string; owner: symbol }>()

  constructor(private readonly tokens: TokenStore) {}

  /** The refusal for a create (`me`) whose token another create already holds, committed or only planned. */
  conflict(token: string, me: symbol, scope: string): Status | null {
    const pending = this.pending.get(token)
    const seen = (pending && pending.owner !== me ? pending : null) ?? this.tokens.find(token)
    return seen ? tokenConflict(token, seen, scope) : null
  }

  /** Holds the token for a planned create until it is answered. */
  reserve(token: string, me: symbol, resource: string, name: string, uid: string): void {
    this.pending.set(token, { resource, name, uid, owner: me })
  }

  /** The create is answered: its reservation ends, and the token is claimed if the create committed. */
  settle(token: string, me: symbol, committed: boolean): void {
    const pending = this.pending.get(token)
    if (pending?.owner === me) {
      this.pending.delete(token)
      // Only a committed create claims its token; a refused or failed one leaves it free for the retry.
      if (committed) this.tokens.record(token, pending.resource, pending.name, pending.uid, Date.now())
    }
  }
}
