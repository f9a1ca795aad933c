// orch-cluster's pass-through: everything after `--` goes on every replica's command line, with
// `{replica}` replaced by the replica's name (each replica its own audit log, say).

/** The placeholder replaced by a replica's name. */
export const replicaPlaceholder = '{replica}';

/** Splits the launcher's arguments at the first `--`: its own, and those for every replica. */
export function splitPassThrough(argv: readonly string[]): { own: string[]; passThrough: string[] } {
  const at = argv.indexOf('--');
  return at === -1 ? { own: [...argv], passThrough: [] } : { own: argv.slice(0, at), passThrough: argv.slice(at + 1) };
}

/** The pass-through arguments of replica `name`. */
export function replicaPassThroughArgs(passThrough: readonly string[], name: string): string[] {
  return passThrough.map((arg) => arg.replaceAll(replicaPlaceholder, name));
}
