// `orchctl get <resource> [name...]`: objects as a table the server lays out, or as JSON, YAML or
// names, like kubectl get.
import type { KubeObject } from '../client/objects.ts';
import { outputFormat, parseCommandArgs, printedHelp, requirePositionals, stringOption } from './args.ts';
import type { CtlCommand } from './command.ts';
import { objectHints } from './errors.ts';
import { connectionOptions, connectionUsage, withConnection } from './connection.ts';
import { collectionPath, discoverResources, displayName, objectPath, resolveResource, type ApiResource } from './discovery.ts';
import { namespaceOptions, namespaceScope, namespaceUsage, requestNamespace } from './object-scope.ts';
import { formatJson, formatYaml } from './output.ts';
import { formatServerTable, isServerTable, tableAccept, type ServerTable } from './server-table.ts';

const formats = ['table', 'json', 'yaml', 'name'] as const;

const usage = `Usage: orchctl get <resource> [name...] [-n NS | -A] [-l selector] [-o table|json|yaml|name] [connection flags]

Shows objects. <resource> is a plural, singular or short name, or a kind, optionally with its
group (deployments.apps), as kubectl takes them. The table is the server's (the columns kubectl
shows); json and yaml print one object, or a List of them.

Flags:
${namespaceUsage}
  -l, --selector SELECTOR    only objects whose labels match (e.g. app=web,tier!=cache)
  -o, --output FORMAT        table (default), json, yaml or name
${connectionUsage}
`;

/** A List of objects, as kubectl prints several. */
function asList(items: readonly unknown[]): unknown {
  return { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '' }, items };
}

/** Objects of a JSON answer: its items, or itself. Fills in apiVersion/kind that list items leave out. */
function objectsOf(answer: unknown, resource: ApiResource): KubeObject[] {
  const items = (answer as { items?: unknown }).items;
  const apiVersion = resource.group === '' ? resource.version : `${resource.group}/${resource.version}`;
  const objects = Array.isArray(items) ? (items as KubeObject[]) : [answer as KubeObject];
  return objects.map((o) => ({ apiVersion, kind: resource.kind, ...o }));
}

export const getCommand: CtlCommand = {
  name: 'get',
  summary: 'show objects (table, json, yaml or names)',
  usage,
  async run(args, io) {
    const parsed = parseCommandArgs('get', args, { ...connectionOptions, ...namespaceOptions, selector: { type: 'string', short: 'l' }, output: { type: 'string', short: 'o' } });
    if (printedHelp(parsed, io, usage)) return 0;
    const [resourceText, ...names] = requirePositionals('get', parsed, 1, Number.MAX_SAFE_INTEGER, 'a resource type (e.g. orchctl get pods)');
    const format = outputFormat('get', parsed, formats, 'table');
    const selector = stringOption(parsed, 'selector');
    // -n/-A mistakes are usage errors, found before connecting.
    namespaceScope('get', parsed, 'default', names.length === 0);
    await withConnection(parsed, io, async (connection) => {
      const client = connection.client();
      const scope = namespaceScope('get', parsed, connection.namespace, names.length === 0);
      const resource = resolveResource(await discoverResources(client, () => connection.requestSignal()), resourceText ?? '');
      const namespace = requestNamespace(resource, scope);
      const headers = format === 'table' ? { accept: tableAccept } : undefined;
      const answers =
        names.length === 0
          ? [await client.list(collectionPath(resource, namespace), { query: { labelSelector: selector }, signal: connection.requestSignal(), ...(headers ? { headers } : {}) })]
          : await Promise.all(names.map((n) => client.get(objectPath(resource, namespace, n), { signal: connection.requestSignal(), ...(headers ? { headers } : {}) })));
      if (format === 'table') {
        const tables = answers.filter(isServerTable);
        const merged: ServerTable = { kind: 'Table', columnDefinitions: tables[0]?.columnDefinitions ?? [], rows: tables.flatMap((t) => t.rows ?? []) };
        if ((merged.rows ?? []).length === 0) {
          io.stderr(resource.namespaced && namespace !== undefined ? `No resources found in ${namespace} namespace.\n` : 'No resources found\n');
          return;
        }
        io.stdout(formatServerTable(merged, resource.namespaced && scope.allNamespaces));
        return;
      }
      const objects = answers.flatMap((a) => objectsOf(a, resource));
      if (format === 'name') {
        io.stdout(objects.map((o) => `${displayName(resource, o.metadata?.name ?? '')}\n`).join(''));
        return;
      }
      const single = names.length === 1 ? objects[0] : asList(objects);
      io.stdout(format === 'json' ? formatJson(single) : formatYaml(single));
    }, objectHints);
    return 0;
  },
};
