// `orchctl certs ca|replica|admin`: the cluster's certificates for hosts, made on the operator's
// machine where the CA keys stay (deploy/README.md). Each host gets ca.crt without ca.key, its own
// peer-<name>.crt/.key, and the files every replica shares; the replica itself then makes nothing
// (internal/certificates/cluster-pki.ts).
import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { ensureCertificateAuthorities, loadIssuingCa, PkiFileError, writePair } from '../certificates/cluster-pki.ts';
import { issuePeerCertificate } from '../certificates/pki.ts';
import { adminGroup, adminUsername, ensureAdminClient, ensureServiceAccountKeys } from '../cluster/cluster-credentials.ts';
import { renderKubeconfig, type KubeconfigReplica } from '../cluster/kubeconfig.ts';
import { parseCommandArgs, printedHelp, requirePositionals, stringOption, type ParsedArgs } from './args.ts';
import { CtlError, type CtlIo } from './command.ts';
import { commandGroup, type CtlSubcommand } from './subcommands.ts';

/** The files every host's pki directory holds besides its own peer certificate (none of them the CA key). */
export const sharedHostFiles = ['ca.crt', 'signing-ca.crt', 'signing-ca.key', 'client-ca.crt', 'sa.key', 'sa.pub'] as const;

/** --pki-dir, required, resolved against the working directory. */
function pkiDirOf(command: string, parsed: ParsedArgs, io: CtlIo): string {
  const dir = stringOption(parsed, 'pki-dir');
  if (dir === undefined || dir === '') throw new CtlError(`orchctl ${command} needs --pki-dir DIR; see orchctl ${command} --help`, 2);
  return resolve(io.cwd, dir);
}

/** Runs `work`, turning file errors (a PKI file missing or partial, a directory not writable) into one line. */
async function withPkiFiles<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PkiFileError) throw new CtlError(error.message);
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code.startsWith('E')) throw new CtlError(`${(error as Error).message.split('\n')[0] ?? code}`);
    throw error;
  }
}

/** Writes `text` to `path` atomically (temp file + rename) with `mode`. */
async function writeFileAtomically(path: string, text: string, mode: number): Promise<void> {
  await writeFile(`${path}.tmp`, text, { mode });
  await rename(`${path}.tmp`, path);
}

const caUsage = `Usage: orchctl certs ca --pki-dir DIR

Makes what a cluster's hosts share, where each is missing in DIR (on the operator's machine; nothing
that exists is replaced):
  ca.crt, ca.key                  the cluster CA: signs the replicas' peer and serving certificates
                                  and the admin's client certificate (ca.key stays in DIR)
  signing-ca.crt, signing-ca.key  the CA the certificate signers sign CertificateSigningRequests with
  sa.key, sa.pub                  the service-account token signing key pair
  client-ca.crt                   --client-ca-file: ca.crt and signing-ca.crt

Flags:
  --pki-dir DIR              the operator's PKI directory (made when missing)
`;

const ca: CtlSubcommand = {
  name: 'ca',
  summary: 'make the cluster CA, the signing CA and the service-account keys when missing',
  usage: caUsage,
  async run(args, io) {
    const parsed = parseCommandArgs('certs ca', args, { 'pki-dir': { type: 'string' } });
    if (printedHelp(parsed, io, caUsage)) return 0;
    requirePositionals('certs ca', parsed, 0, 0, 'no argument');
    const dir = pkiDirOf('certs ca', parsed, io);
    await withPkiFiles(async () => {
      const { ca: clusterCa, signingCa, made } = await ensureCertificateAuthorities(dir);
      if (ensureServiceAccountKeys(dir).made) made.push('sa');
      const bundle = `${clusterCa.cert.trimEnd()}\n${signingCa.cert}`;
      const clientCaFile = join(dir, 'client-ca.crt');
      // Derived from the two CAs: rewritten when it does not hold them (e.g. a CA file was restored).
      if (!existsSync(clientCaFile) || (await readFile(clientCaFile, 'utf8')) !== bundle) {
        await writeFileAtomically(clientCaFile, bundle, 0o644);
        made.push('client-ca');
      }
      const what = made.length === 0 ? 'everything was already there' : `made ${made.join(', ')}`;
      io.stdout(`${dir}: ${what}\ncopy ${sharedHostFiles.join(', ')} (never ca.key) to every host's pki directory\n`);
    });
    return 0;
  },
};

/** Parses --hosts: DNS names and IP addresses, at least one. */
function parseHosts(text: string | undefined): string[] {
  if (text === undefined) throw new CtlError('orchctl certs replica needs --hosts: the names and addresses the other replicas and clients reach it at (e.g. --hosts h4.example.com,10.0.0.4); see orchctl certs replica --help', 2);
  const hosts = text.split(',').map((h) => h.trim()).filter((h) => h !== '');
  if (hosts.length === 0) throw new CtlError('--hosts names no host: give h4.example.com,10.0.0.4', 2);
  for (const host of hosts) {
    const dnsName = /^(\*\.)?[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?(\.[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?)*$/;
    if (isIP(host) === 0 && !dnsName.test(host)) throw new CtlError(`--hosts: "${host}" is neither a DNS name nor an IP address`, 2);
  }
  return hosts;
}

const replicaUsage = `Usage: orchctl certs replica <name> --pki-dir DIR --hosts NAME,IP,...

Issues replica <name>'s certificate from the cluster CA in DIR: peer-<name>.crt and peer-<name>.key,
for the Raft peer port (CN <name>, server and client use) and the HTTPS API, valid for localhost,
127.0.0.1, ::1, <name> and --hosts. Copy them to that host's pki directory with the files
orchctl certs ca lists. Refuses when peer-<name>.crt or .key exists (remove both to issue anew).

Flags:
  --pki-dir DIR              the operator's PKI directory, with ca.crt and ca.key (orchctl certs ca)
  --hosts LIST               the host's DNS names and IP addresses: every name and address peers
                             and clients reach it at (its --advertise-address and --peer-address hosts)
`;

const replica: CtlSubcommand = {
  name: 'replica',
  summary: 'issue a replica\'s peer and serving certificate with its host names and addresses',
  usage: replicaUsage,
  async run(args, io) {
    const parsed = parseCommandArgs('certs replica', args, { 'pki-dir': { type: 'string' }, hosts: { type: 'string' } });
    if (printedHelp(parsed, io, replicaUsage)) return 0;
    const [name = ''] = requirePositionals('certs replica', parsed, 1, 1, 'the replica name (its --name, e.g. orch-4)');
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name)) throw new CtlError(`orchctl certs replica: "${name}" is not a replica name: a DNS label such as orch-4, as its --name`, 2);
    const dir = pkiDirOf('certs replica', parsed, io);
    const hosts = parseHosts(stringOption(parsed, 'hosts'));
    await withPkiFiles(async () => {
      const issuer = await loadIssuingCa(dir);
      const base = `peer-${name}`;
      if (existsSync(join(dir, `${base}.crt`)) || existsSync(join(dir, `${base}.key`))) {
        throw new CtlError(`${base}.crt or ${base}.key is already in ${dir}: remove both to issue a new certificate for ${name}`);
      }
      await writePair(dir, base, await issuePeerCertificate(issuer, name, hosts));
      const names = [...new Set(['localhost', '127.0.0.1', '::1', name, ...hosts])];
      io.stdout(`wrote ${join(dir, `${base}.crt`)} and ${base}.key for ${names.join(', ')}\ncopy them with ${sharedHostFiles.join(', ')} to ${name}'s pki directory\n`);
    });
    return 0;
  },
};

/** Parses --servers: replica API URLs, each a kubeconfig cluster and context named after its host. */
function parseServers(text: string | undefined): KubeconfigReplica[] {
  if (text === undefined) throw new CtlError('orchctl certs admin needs --servers https://h1:6443,...: every replica\'s API URL; see orchctl certs admin --help', 2);
  const urls = text.split(',').map((s) => s.trim()).filter((s) => s !== '').map((item) => {
    let url: URL;
    try {
      url = new URL(item);
    } catch {
      throw new CtlError(`--servers: "${item}" is not a URL such as https://10.0.0.1:6443`, 2);
    }
    if (url.protocol !== 'https:' || url.pathname.replace(/\/+$/, '') !== '' || url.search !== '' || url.username !== '') {
      throw new CtlError(`--servers: "${item}" is not a replica API URL such as https://10.0.0.1:6443`, 2);
    }
    return url;
  });
  if (urls.length === 0) throw new CtlError('--servers names no server: give https://h1:6443,...', 2);
  const hostname = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');
  const byHost = new Map<string, number>();
  for (const url of urls) byHost.set(hostname(url), (byHost.get(hostname(url)) ?? 0) + 1);
  const servers = urls.map((url) => ({
    // Named after the host; host-port when two servers share a host.
    name: (byHost.get(hostname(url)) ?? 0) > 1 ? `${hostname(url)}-${url.port || '443'}` : hostname(url),
    server: `${url.protocol}//${url.host}`,
  }));
  if (new Set(servers.map((s) => s.server)).size !== servers.length) throw new CtlError('--servers names a server twice', 2);
  return servers;
}

const adminUsage = `Usage: orchctl certs admin --pki-dir DIR --servers https://h1:6443,... [--out FILE]

Issues the cluster admin's client certificate from the cluster CA in DIR (CN ${adminUsername},
O ${adminGroup}; admin.crt and admin.key in DIR, reused when there) and writes a kubeconfig
(mode 0600) with one cluster and context per server, named after its host, the first current.
orchctl and kubectl use it (--kubeconfig FILE, or KUBECONFIG=FILE).

Flags:
  --pki-dir DIR              the operator's PKI directory, with ca.crt and ca.key (orchctl certs ca)
  --servers LIST             every replica's API URL (https://host:port, its --advertise-address)
  --out FILE                 where to write the kubeconfig (default: DIR/admin.kubeconfig)
`;

const admin: CtlSubcommand = {
  name: 'admin',
  summary: 'issue the admin\'s client certificate and write a kubeconfig for the servers',
  usage: adminUsage,
  async run(args, io) {
    const parsed = parseCommandArgs('certs admin', args, { 'pki-dir': { type: 'string' }, servers: { type: 'string' }, out: { type: 'string' } });
    if (printedHelp(parsed, io, adminUsage)) return 0;
    requirePositionals('certs admin', parsed, 0, 0, 'no argument');
    const dir = pkiDirOf('certs admin', parsed, io);
    const servers = parseServers(stringOption(parsed, 'servers'));
    const outArg = stringOption(parsed, 'out');
    const out = outArg === undefined ? join(dir, 'admin.kubeconfig') : resolve(io.cwd, outArg);
    await withPkiFiles(async () => {
      const issuer = await loadIssuingCa(dir);
      const client = await ensureAdminClient(dir, issuer);
      await writeFileAtomically(out, renderKubeconfig({ replicas: servers, caPem: issuer.cert, adminClient: client.pair }), 0o600);
      const certificate = client.made ? `issued ${join(dir, 'admin.crt')}` : `reused ${join(dir, 'admin.crt')}`;
      io.stdout(`${certificate}; wrote ${out} with contexts ${servers.map((s) => s.name).join(', ')}\n`);
    });
    return 0;
  },
};

/** `orchctl certs`: the CA, replica and admin certificates of a cluster on hosts. */
export const certsCommand = commandGroup(
  'certs',
  'make the CAs, a replica\'s certificate or the admin\'s kubeconfig for a cluster on hosts',
  'Run on the operator\'s machine, where ca.key stays; copy the files it names to the hosts (deploy/README.md).',
  [ca, replica, admin],
);
