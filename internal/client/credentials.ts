// Where a client's credentials come from on each request: fixed ones from its options, or a
// provider that can change them over time (an exec plugin, see exec-credential.ts).

/** What a request presents: a bearer token, a client certificate and key (PEM), or both. */
export interface Credentials {
  readonly token?: string;
  readonly clientCertPem?: string;
  readonly clientKeyPem?: string;
}

/**
 * A source of credentials for every request of a client. Identity matters: `get` returns the same
 * object for as long as the credential is unchanged, and `invalidate` compares by identity.
 */
export interface CredentialProvider {
  /** The credential to use now; may run a plugin (one run at a time). Rejects when none can be had. */
  get(): Promise<Credentials>;
  /**
   * The server answered 401 to a request that presented `used`: forget it unless it was already
   * replaced. Returns true when a new `get()` may yield something else, i.e. a retry makes sense.
   */
  invalidate(used: Credentials): boolean;
  /**
   * The latest credential without running anything (possibly expired), or undefined. Health probes
   * send it; the client compares it with what `get` gave to know whether that is still the latest.
   */
  peek(): Credentials | undefined;
}

/** Credentials fixed for the client's lifetime: a 401 is final. */
export class StaticCredentials implements CredentialProvider {
  constructor(private readonly credentials: Credentials) {}

  get(): Promise<Credentials> {
    return Promise.resolve(this.credentials);
  }

  invalidate(): boolean {
    return false;
  }

  peek(): Credentials {
    return this.credentials;
  }
}
