// `orchctl watch <resource>`: one line per change, resuming on another replica when a stream
// breaks (internal/client/watch.ts), until interrupted.
import { watch, type WatchEvent } from '../client/watch.ts';
import { outputFormat, parseCommandArgs, printedHelp, requirePositionals, stringOption } from './args.ts';
import type { CtlCommand, CtlIo } from './command.ts';
import { objectHints } from './errors.ts';
import { connectionOptions, connectionUsage, withConnection } from './connection.ts';
import { collectionPath, discoverResources, displayName, resolveResource, type ApiResource } from './discovery.ts';
import { namespaceOptions, namespaceScope, namespaceUsage, requestNamespace } from './object-scope.ts';

const usage = `Usage: orchctl watch <resource> [-n NS | -A] [-l selector] [--resource-version RV] [-o text|json] [connection flags]

Prints one line per change to objects of <resource>: the event type, the object and its
resourceVersion (or, with -o json, the event as one line of JSON). Without --resource-version it
starts with an ADDED line per existing object. When a replica goes away it resumes on another from
the last version printed, so no change is missed or repeated. Stops on Ctrl-C.

Flags:
${namespaceUsage}
  -l, --selector SELECTOR    only objects whose labels match
  --resource-version RV      start after this version
  -o, --output FORMAT        text (default) or json
${connectionUsage}
`;

/** One event as a line of text. */
export function formatWatchEvent(event: WatchEvent, resource: ApiResource, format: 'text' | 'json'): string | undefined {
  if (format === 'json') {
    if (event.type === 'RESYNC') return `${JSON.stringify({ type: 'RESYNC', resourceVersion: event.resourceVersion, objects: event.objects })}\n`;
    if (event.type === 'BOOKMARK') return undefined;
    return `${JSON.stringify({ type: event.type, object: event.object })}\n`;
  }
  if (event.type === 'BOOKMARK') return undefined;
  if (event.type === 'RESYNC') return `RESYNC ${event.objects.length} objects at resourceVersion ${event.resourceVersion} (the watch history was compacted)\n`;
  const namespace = event.object.metadata?.namespace;
  const where = namespace === undefined || namespace === '' ? '' : ` -n ${namespace}`;
  return `${event.type} ${displayName(resource, event.object.metadata?.name ?? '')}${where} resourceVersion=${event.resourceVersion}\n`;
}

/** An AbortSignal that fires on SIGINT while `body` runs. */
async function untilInterrupted<T>(body: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onInterrupt = (): void => controller.abort();
  process.once('SIGINT', onInterrupt);
  try {
    return await body(controller.signal);
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}

async function runWatch(args: readonly string[], io: CtlIo): Promise<number> {
  const parsed = parseCommandArgs('watch', args, {
    ...connectionOptions, ...namespaceOptions, selector: { type: 'string', short: 'l' }, 'resource-version': { type: 'string' }, output: { type: 'string', short: 'o' },
  });
  if (printedHelp(parsed, io, usage)) return 0;
  const [resourceText] = requirePositionals('watch', parsed, 1, 1, 'a resource type (e.g. orchctl watch configmaps)');
  const format = outputFormat('watch', parsed, ['text', 'json'], 'text');
  const resourceVersion = stringOption(parsed, 'resource-version');
  const selector = stringOption(parsed, 'selector');
  namespaceScope('watch', parsed, 'default', true);
  await withConnection(parsed, io, async (connection) => {
    const client = connection.client();
    const scope = namespaceScope('watch', parsed, connection.namespace, true);
    const resource = resolveResource(await discoverResources(client, () => connection.requestSignal()), resourceText ?? '');
    await untilInterrupted(async (signal) => {
      const events = watch(client, {
        path: collectionPath(resource, requestNamespace(resource, scope)),
        signal,
        ...(resourceVersion === undefined ? {} : { resourceVersion }),
        ...(selector === undefined ? {} : { query: { labelSelector: selector } }),
      });
      for await (const event of events) {
        const line = formatWatchEvent(event, resource, format);
        if (line !== undefined) io.stdout(line);
      }
    });
  }, objectHints);
  return 0;
}

export const watchCommand: CtlCommand = {
  name: 'watch',
  summary: 'print changes to objects as they happen, resuming across replicas',
  usage,
  run: runWatch,
};
