// The error every patch engine throws for a patch that cannot apply; the store turns it into a Status.

export class PatchError extends Error {
  constructor(
    message: string,
    /** 400 for a malformed patch document, 422 for one that does not apply to this object. */
    readonly code: 400 | 422 = 422,
  ) {
    super(message)
  }
}
