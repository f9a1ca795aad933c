import { Agent, request } from 'undici';

/** One decoded watch event as a test records it. */
export interface RecordedEvent {
  readonly type: string;
  readonly name: string;
  readonly resourceVersion: number;
  readonly object: Record<string, unknown>;
}

/**
 * Reads a watch stream (newline-delimited JSON over a chunked response) and hands each event to
 * `onEvent`. Resolves when the stream ends or breaks (the replica died); never throws.
 */
export async function readWatch(options: {
  url: string;
  caPem: string;
  token: string;
  signal: AbortSignal;
  onEvent: (event: RecordedEvent) => void;
}): Promise<{ status: number; error: unknown }> {
  const agent = new Agent({ connect: { ca: options.caPem }, bodyTimeout: 0, headersTimeout: 10_000 });
  try {
    const res = await request(options.url, { dispatcher: agent, signal: options.signal, headers: { authorization: `Bearer ${options.token}` } });
    if (res.statusCode !== 200) {
      await res.body.text();
      return { status: res.statusCode, error: null };
    }
    let buffered = '';
    for await (const chunk of res.body) {
      buffered += Buffer.from(chunk as Uint8Array).toString('utf8');
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline).trim();
        buffered = buffered.slice(newline + 1);
        if (line === '') continue;
        const event = JSON.parse(line) as { type: string; object: { metadata?: { name?: string; resourceVersion?: string } } & Record<string, unknown> };
        options.onEvent({
          type: event.type,
          name: event.object.metadata?.name ?? '',
          resourceVersion: Number(event.object.metadata?.resourceVersion),
          object: event.object,
        });
      }
    }
    return { status: 200, error: null };
  } catch (error) {
    return { status: 0, error };
  } finally {
    await agent.close().catch(() => undefined);
  }
}
