import { computeMaxAge } from '../domain/http-caching.js';
import { encodeBody, type ContentEncoding } from './content-encoding.js';

/** One encoding of a document, ready to send: its bytes and every header that describes them. */
export interface EncodedDocument {
  body: Buffer;
  headers: Readonly<Record<string, string>>;
}

/** A document the service serves from memory (a status list token, the aggregation). */
export interface RepresentedDocument {
  /** The exact bytes served. */
  body: Buffer;
  contentType: string;
  /** Strong validator of `body`. */
  etag: string;
  /** `ttl` and `exp` of a token, which bound `max-age`; null for none. */
  ttl: number | null;
  exp: number | null;
  /** `Last-Modified`, when known. */
  lastModified?: Date;
}

export interface RepresentationOptions {
  /** DEFAULT_MAX_AGE_SECONDS: `max-age` of lists without `ttl` or `exp`. */
  defaultMaxAgeSeconds: number;
  /** Smallest body worth compressing, in bytes: smaller ones are always sent as they are. */
  compressionThreshold: number;
  /** The clock in ms since the epoch: `max-age` counts down to a token's `exp` by it. */
  now: () => number;
}

/**
 * A document as the read routes send it (STATUS-LIST.md, Serving), built once per
 * value rather than on every request: its bytes, the headers of a 200 and of a 304,
 * and its compressed encodings, each made on first demand and then kept with the
 * value. Only `Cache-Control` depends on the time, and only for documents with `exp`
 * (max-age counts down to it): it is recomputed at most once a second, and the header
 * sets are rebuilt only when its value changes.
 */
export class DocumentRepresentation {
  readonly etag: string;
  private readonly identityBody: Buffer;
  /** Validators and caching headers, sent with 200 and 304 alike (without Cache-Control). */
  private readonly validators: Readonly<Record<string, string>>;
  private readonly ttl: number | null;
  private readonly exp: number | null;
  private readonly now: () => number;
  private cacheControl: string;
  private cacheControlSecond: number;
  private readonly contentType: string;
  /** Ready-to-send answers by content coding (`identity` too), for the current Cache-Control. */
  private readonly answers = new Map<string, EncodedDocument>();
  private notModified: Readonly<Record<string, string>> | undefined;
  /** Compressed bodies; `null` when compressing did not make the body smaller. */
  private readonly encodedBodies = new Map<ContentEncoding, Buffer | null | Promise<Buffer | null>>();

  constructor(
    document: RepresentedDocument,
    private readonly options: RepresentationOptions,
  ) {
    this.now = options.now;
    this.etag = document.etag;
    this.identityBody = document.body;
    this.contentType = document.contentType;
    this.ttl = document.ttl;
    this.exp = document.exp;
    this.validators = {
      etag: document.etag,
      ...(document.lastModified ? { 'last-modified': document.lastModified.toUTCString() } : {}),
      vary: 'Accept, Accept-Encoding',
    };
    this.cacheControlSecond = Math.floor(this.now() / 1000);
    this.cacheControl = this.computeCacheControl(this.cacheControlSecond);
  }

  /** The headers of a 304: those a 200 carries about caching, none about a body (RFC 9110 §15.4.5). */
  notModifiedHeaders(): Readonly<Record<string, string>> {
    this.refreshCacheControl();
    return (this.notModified ??= { ...this.validators, 'cache-control': this.cacheControl });
  }

  /**
   * The document in `encoding`, or as it is when `encoding` is undefined, when the body is
   * below the compression threshold or when compressing does not make it smaller.
   * Synchronous once the encoding exists; the first request for a coding waits for it.
   */
  encoded(encoding: ContentEncoding | undefined): EncodedDocument | Promise<EncodedDocument> {
    this.refreshCacheControl();
    const ready = this.answers.get(encoding ?? 'identity');
    if (ready) return ready;
    if (encoding === undefined || this.identityBody.length < this.options.compressionThreshold) {
      return this.remember(encoding ?? 'identity', this.identity());
    }
    let body = this.encodedBodies.get(encoding);
    if (body === undefined) {
      body = encodeBody(this.identityBody, encoding).then(
        (encoded) => (encoded.length < this.identityBody.length ? encoded : null),
        // zlib does not fail on a buffer; if it ever did, the list is still served as it is.
        () => null,
      );
      this.encodedBodies.set(encoding, body);
      void body.then((settled) => this.encodedBodies.set(encoding, settled));
    }
    if (body instanceof Promise) return body.then((settled) => this.answerIn(encoding, settled));
    return this.answerIn(encoding, body);
  }

  /** The answer for `encoding` once its body is known (`null`: it did not shrink, so the identity answer). */
  private answerIn(encoding: ContentEncoding, body: Buffer | null): EncodedDocument {
    return this.answers.get(encoding) ?? this.remember(encoding, body ? this.build(body, encoding) : this.identity());
  }

  private identity(): EncodedDocument {
    return this.answers.get('identity') ?? this.remember('identity', this.build(this.identityBody, undefined));
  }

  private remember(key: string, answer: EncodedDocument): EncodedDocument {
    this.answers.set(key, answer);
    return answer;
  }

  private build(body: Buffer, encoding: ContentEncoding | undefined): EncodedDocument {
    return {
      body,
      headers: {
        'content-type': this.contentType,
        'content-length': String(body.length),
        ...(encoding ? { 'content-encoding': encoding } : {}),
        ...this.validators,
        'cache-control': this.cacheControl,
      },
    };
  }

  /** Lists with `exp`: max-age counts down, so Cache-Control is recomputed when the second changes. */
  private refreshCacheControl(): void {
    if (this.exp === null) return;
    const nowSeconds = Math.floor(this.now() / 1000);
    if (nowSeconds === this.cacheControlSecond) return;
    this.cacheControlSecond = nowSeconds;
    const value = this.computeCacheControl(nowSeconds);
    if (value === this.cacheControl) return;
    this.cacheControl = value;
    this.answers.clear();
    this.notModified = undefined;
  }

  private computeCacheControl(nowSeconds: number): string {
    const maxAge = computeMaxAge({
      ttl: this.ttl,
      exp: this.exp,
      nowSeconds,
      defaultMaxAge: this.options.defaultMaxAgeSeconds,
    });
    return `public, max-age=${maxAge}`;
  }
}
