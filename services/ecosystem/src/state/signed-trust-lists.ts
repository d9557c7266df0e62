/** A list as signed by this replica. */
export interface SignedTrustList {
  ecosystemId: string;
  sequence: number;
  /** The compact JWS. */
  jws: string;
  issuedAt: Date;
  nextUpdate: Date;
}

export interface SignedTrustListCacheOptions {
  /** A signed list is reused until this long after it was signed, then signed anew (before its NextUpdate). */
  resignAfterMs: number;
  /** Ecosystems kept; the least recently signed is dropped first. */
  maxEntries?: number;
}

/**
 * The signed lists of this replica, one per ecosystem, by (ecosystem, sequence): a
 * change (a new sequence) or age past `resignAfterMs` makes the next request sign
 * again, so a list is re-signed before its NextUpdate even when nothing changed.
 * Per replica and in memory: replicas sign their own copies, all under the one CA.
 */
export class SignedTrustListCache {
  private readonly lists = new Map<string, SignedTrustList>();
  private readonly maxEntries: number;

  constructor(private readonly options: SignedTrustListCacheOptions) {
    this.maxEntries = options.maxEntries ?? 10_000;
  }

  /** The signed list of `ecosystemId` at `sequence` when it may still be served at `now`. */
  fresh(ecosystemId: string, sequence: number, now: Date): SignedTrustList | undefined {
    const list = this.lists.get(ecosystemId);
    if (!list || list.sequence !== sequence) return undefined;
    const age = now.getTime() - list.issuedAt.getTime();
    // A clock that went back (age < 0) signs anew rather than serve a list "from the future".
    return age >= 0 && age < this.options.resignAfterMs ? list : undefined;
  }

  put(list: SignedTrustList): void {
    const existing = this.lists.get(list.ecosystemId);
    // A slower request that read an older sequence must not replace a newer list.
    if (existing && existing.sequence > list.sequence) return;
    this.lists.delete(list.ecosystemId);
    this.lists.set(list.ecosystemId, list);
    if (this.lists.size > this.maxEntries) this.lists.delete(this.lists.keys().next().value!);
  }
}
