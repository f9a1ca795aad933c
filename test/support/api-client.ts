import { Agent, request } from 'undici';

/** A response of the API as a test sees it. */
export interface ApiResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  readonly json: unknown;
}

/** A minimal HTTPS client for tests: trusts the cluster CA and sends the admin token. */
export class TestApiClient {
  private readonly agent: Agent;

  constructor(
    readonly baseUrl: string,
    caPem: string,
    private readonly token: string,
  ) {
    this.agent = new Agent({ connect: { ca: caPem }, allowH2: false });
  }

  /** Sends one request; never throws for an HTTP error status. */
  async call(method: string, path: string, options: { body?: unknown; contentType?: string; headers?: Record<string, string> } = {}): Promise<ApiResponse> {
    const body = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    const res = await request(`${this.baseUrl}${path}`, {
      method: method as 'GET',
      dispatcher: this.agent,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { 'content-type': options.contentType ?? 'application/json' }),
        ...options.headers,
      },
      ...(body === undefined ? {} : { body }),
    });
    const text = await res.body.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, headers: res.headers, text, json };
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
