// Reads what one replica stores, from that replica's own URL (no load balancing): the way a test
// proves every replica holds every acknowledged write.
import assert from 'node:assert/strict';
import { TestApiClient } from './api-client.ts';
import type { StoredObject } from './write-load.ts';

interface ConfigMapList {
  readonly items: readonly { readonly metadata: { readonly name: string; readonly resourceVersion: string }; readonly data?: { readonly v?: string } }[];
  readonly metadata: { readonly resourceVersion: string };
}

/** The ConfigMaps labelled test=<label> that `apiUrl` lists (a consistent read), by name, and the list's revision. */
export async function storedOn(apiUrl: string, caPem: string, token: string, label: string, namespace = 'default'): Promise<{ objects: Map<string, StoredObject>; revision: number }> {
  const client = new TestApiClient(apiUrl, caPem, token);
  try {
    const res = await client.call('GET', `/api/v1/namespaces/${namespace}/configmaps?labelSelector=${encodeURIComponent(`test=${label}`)}`);
    assert.equal(res.status, 200, `list on ${apiUrl}: ${res.text}`);
    const list = res.json as ConfigMapList;
    const objects = new Map(list.items.map((o) => [o.metadata.name, { resourceVersion: Number(o.metadata.resourceVersion), value: o.data?.v ?? '' }]));
    return { objects, revision: Number(list.metadata.resourceVersion) };
  } finally {
    await client.close();
  }
}
