#!/usr/bin/env node
// orchctl: operates an orch cluster (status, membership, snapshots, leadership) and works on its
// objects (get, apply, delete, watch). The commands live in internal/ctl/; this only wires the
// process to them.
import { runOrchctl } from '../internal/ctl/dispatcher.ts';

const code = await runOrchctl(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
});
process.exitCode = code;
// Every client is closed by now; should a stray handle remain, it must not keep orchctl running.
setTimeout(() => process.exit(code), 2000).unref();
