// `orchctl apply -f`: server-side apply of every object in the manifests, as field manager orchctl.
import { ApiError } from '../client/errors.ts';
import { booleanOption, parseCommandArgs, printedHelp, requirePositionals } from './args.ts';
import { CtlError, type CtlCommand } from './command.ts';
import { objectHints } from './errors.ts';
import { connectionOptions, connectionUsage, withConnection } from './connection.ts';
import { discoverResources, displayName, objectPath, resourceForKind } from './discovery.ts';
import { readManifests } from './manifests.ts';
import { namespaceOptions, namespaceScope } from './object-scope.ts';

/** The field manager orchctl applies as. */
export const fieldManager = 'orchctl';

const usage = `Usage: orchctl apply -f <file|dir|-> [-f ...] [-n NS] [--force-conflicts] [connection flags]

Server-side applies every object of the manifests (multi-document YAML or JSON; a directory's
.yaml, .yml and .json files; - for standard input) as field manager "orchctl", and prints
<kind>/<name> serverside-applied for each.

Flags:
  -f, --filename PATH        a file, a directory or - (repeatable)
  -n, --namespace NS         the namespace of objects that name none (default: the context's)
  --force-conflicts          take over fields another manager owns instead of failing
${connectionUsage}
`;

export const applyCommand: CtlCommand = {
  name: 'apply',
  summary: 'server-side apply objects from files, a directory or standard input',
  usage,
  async run(args, io) {
    const parsed = parseCommandArgs('apply', args, {
      ...connectionOptions, namespace: namespaceOptions['namespace'] ?? { type: 'string' }, filename: { type: 'string', short: 'f', multiple: true }, 'force-conflicts': { type: 'boolean' },
    });
    if (printedHelp(parsed, io, usage)) return 0;
    requirePositionals('apply', parsed, 0, 0, 'no arguments');
    const files = parsed.values['filename'];
    if (!Array.isArray(files) || files.length === 0) throw new CtlError('orchctl apply needs -f <file|dir|->; see orchctl apply --help', 2);
    const manifests = await readManifests(files as string[], io.cwd);
    const force = booleanOption(parsed, 'force-conflicts');
    await withConnection(parsed, io, async (connection) => {
      const client = connection.client();
      const scope = namespaceScope('apply', parsed, connection.namespace, false);
      const resources = await discoverResources(client, () => connection.requestSignal());
      for (const { object, source } of manifests) {
        const resource = resourceForKind(resources, object.apiVersion, object.kind);
        const namespace = resource.namespaced ? (object.metadata.namespace ?? scope.namespace) : undefined;
        const body = resource.namespaced ? { ...object, metadata: { ...object.metadata, namespace } } : object;
        try {
          await client.patch(objectPath(resource, namespace, object.metadata.name), JSON.stringify(body), {
            contentType: 'application/apply-patch+yaml',
            query: { fieldManager, force: force ? 'true' : undefined },
            signal: connection.requestSignal(),
          });
        } catch (error) {
          const what = `${displayName(resource, object.metadata.name)} (${source})`;
          if (error instanceof ApiError && error.status === 409) {
            throw new CtlError(`${what}: ${error.message.split('\n')[0] ?? ''}; apply with --force-conflicts to take over those fields`);
          }
          if (error instanceof ApiError) throw new CtlError(`${what}: ${error.message.split('\n')[0] ?? ''} (${error.status} ${error.reason})`);
          throw error;
        }
        io.stdout(`${displayName(resource, object.metadata.name)} serverside-applied\n`);
      }
    }, objectHints);
    return 0;
  },
};
