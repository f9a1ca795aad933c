// `orchctl delete <resource> <name>...` or `orchctl delete -f <file>`: deletes objects.
import { parseCommandArgs, printedHelp, requirePositionals } from './args.ts';
import { CtlError, type CtlCommand } from './command.ts';
import { objectHints } from './errors.ts';
import { connectionOptions, connectionUsage, withConnection } from './connection.ts';
import { discoverResources, displayName, objectPath, resolveResource, resourceForKind, type ApiResource } from './discovery.ts';
import { readManifests } from './manifests.ts';
import { namespaceOptions, namespaceScope } from './object-scope.ts';

const usage = `Usage: orchctl delete <resource> <name>... [-n NS] [connection flags]
       orchctl delete -f <file|dir|-> [-n NS] [connection flags]

Deletes the named objects, or every object of the manifests. Prints <kind>/<name> deleted for each.

Flags:
  -f, --filename PATH        a file, a directory or - (repeatable)
  -n, --namespace NS         the namespace (default: the object's in a manifest, else the context's)
${connectionUsage}
`;

export const deleteCommand: CtlCommand = {
  name: 'delete',
  summary: 'delete objects by name or from manifests',
  usage,
  async run(args, io) {
    const parsed = parseCommandArgs('delete', args, {
      ...connectionOptions, namespace: namespaceOptions['namespace'] ?? { type: 'string' }, filename: { type: 'string', short: 'f', multiple: true },
    });
    if (printedHelp(parsed, io, usage)) return 0;
    const files = Array.isArray(parsed.values['filename']) ? (parsed.values['filename'] as string[]) : [];
    if (files.length > 0) requirePositionals('delete', parsed, 0, 0, 'no resource when -f is given');
    else requirePositionals('delete', parsed, 2, Number.MAX_SAFE_INTEGER, 'a resource type and at least one name, or -f');
    const manifests = files.length > 0 ? await readManifests(files, io.cwd) : [];
    await withConnection(parsed, io, async (connection) => {
      const client = connection.client();
      const scope = namespaceScope('delete', parsed, connection.namespace, false);
      const resources = await discoverResources(client, () => connection.requestSignal());
      const targets: Array<{ resource: ApiResource; name: string; namespace: string | undefined }> =
        files.length > 0
          ? manifests.map(({ object }) => {
              const resource = resourceForKind(resources, object.apiVersion, object.kind);
              return { resource, name: object.metadata.name, namespace: resource.namespaced ? (object.metadata.namespace ?? scope.namespace) : undefined };
            })
          : parsed.positionals.slice(1).map((name) => {
              const resource = resolveResource(resources, parsed.positionals[0] ?? '');
              return { resource, name, namespace: resource.namespaced ? scope.namespace : undefined };
            });
      for (const { resource, name, namespace } of targets) {
        if (name === '') throw new CtlError('orchctl delete: an object name is empty', 2);
        await client.delete(objectPath(resource, namespace, name), { signal: connection.requestSignal() });
        io.stdout(`${displayName(resource, name)} deleted\n`);
      }
    }, objectHints);
    return 0;
  },
};
