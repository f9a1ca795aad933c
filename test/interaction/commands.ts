/**
 * The script commands: each reads its arguments and drives the InteractionEnv.
 * Node ids are the strings `1`, `2`, ...; `add-nodes` numbers new nodes after the existing ones.
 */
import { MemoryStorage, index, term } from '../../raft/core/index.ts';
import type { ConfChangeSingle, ConfChangeTransition, ConfState, Entry, NodeId } from '../../raft/core/index.ts';
import type { CommandLine } from './args.ts';
import { boolOption, intOption, listOption, positionalArg } from './args.ts';
import { describeConfState, describeEntry, describeHardState, describeSnapshot } from './describe.ts';
import type { InteractionEnv } from './env.ts';
import type { NodeOptions } from './test-node.ts';
import { TestNode } from './test-node.ts';

const encoder = new TextEncoder();

type Handler = (env: InteractionEnv, cmd: CommandLine) => void;

function nodeOptions(cmd: CommandLine, base: NodeOptions): NodeOptions {
  const bugs = listOption(cmd, 'bugs');
  return {
    preVote: boolOption(cmd, 'prevote', base.preVote),
    checkQuorum: boolOption(cmd, 'checkquorum', base.checkQuorum),
    electionTicks: intOption(cmd, 'election', base.electionTicks),
    heartbeatTicks: intOption(cmd, 'heartbeat', base.heartbeatTicks),
    maxSizePerMsgBytes: intOption(cmd, 'max-msg-size', base.maxSizePerMsgBytes),
    maxInflightMsgs: intOption(cmd, 'max-inflight', base.maxInflightMsgs),
    bugs: bugs.length === 0 ? base.bugs : Object.fromEntries(bugs.map((b) => [b, true])),
  };
}

const defaultOptions: NodeOptions = {
  preVote: false,
  checkQuorum: false,
  electionTicks: 10,
  heartbeatTicks: 1,
  maxSizePerMsgBytes: 1 << 20,
  maxInflightMsgs: 256,
  bugs: {},
};

/** Storage bootstrapped as the options say: a snapshot at `index=` (term 1), then `log-terms=` entries, hard state `term=`. */
function bootstrapStorage(cmd: CommandLine, confState: ConfState): MemoryStorage {
  const storage = new MemoryStorage({ confState });
  const at = intOption(cmd, 'index', 0);
  if (at > 0) storage.applySnapshot({ metadata: { index: index(at), term: term(1), confState }, data: encoder.encode('[]') });
  const entries: Entry[] = listOption(cmd, 'log-terms').map((t, k) => ({
    term: term(Number(t)),
    index: index(at + k + 1),
    type: 'normal',
    data: new Uint8Array(0),
  }));
  storage.append(entries);
  if (cmd.options.has('term')) storage.setHardState({ term: term(intOption(cmd, 'term', 0)), vote: '', commit: index(at) });
  return storage;
}

function addNodes(env: InteractionEnv, cmd: CommandLine): void {
  const count = Number(positionalArg(cmd, 0, 'node count'));
  const confState: ConfState = {
    voters: listOption(cmd, 'voters'),
    learners: listOption(cmd, 'learners'),
    votersOutgoing: [],
    learnersNext: [],
    autoLeave: false,
  };
  const options = nodeOptions(cmd, defaultOptions);
  for (let k = 0; k < count; k++) {
    const id = String(env.nodes.size + 1);
    const storage = bootstrapStorage(cmd, confState);
    env.nodes.set(id, new TestNode(id, storage, options, index(intOption(cmd, 'index', 0))));
    const hs = storage.initialState().hardState;
    env.out.push(`${id}: ${describeHardState(hs)} lastIndex=${storage.lastIndex()} ${describeConfState(confState)}`);
  }
}

function each(cmd: CommandLine, fn: (id: NodeId) => void): void {
  if (cmd.positional.length === 0) throw new Error(`${cmd.name}: name at least one node`);
  for (const id of cmd.positional) fn(id);
}

function ticks(env: InteractionEnv, id: NodeId, count: number): void {
  env.act(id, (raw) => {
    for (let k = 0; k < count; k++) raw.tick();
  });
}

function parseChanges(tokens: readonly string[]): ConfChangeSingle[] {
  const types = { v: 'addVoter', l: 'addLearner', r: 'removeNode' } as const;
  return tokens.map((t) => {
    const type = types[t[0] as keyof typeof types];
    if (type === undefined || t.length < 2) throw new Error(`bad conf change "${t}" (want v<id>, l<id> or r<id>)`);
    return { type, nodeId: t.slice(1) };
  });
}

function transitionOf(cmd: CommandLine): { transition?: ConfChangeTransition } {
  const names = { auto: 'auto', implicit: 'jointImplicit', explicit: 'jointExplicit' } as const;
  const raw = cmd.options.get('transition');
  if (raw === undefined) return {};
  const transition = names[raw as keyof typeof names];
  if (transition === undefined) throw new Error(`transition=${raw}: want auto, implicit or explicit`);
  return { transition };
}

function rawLog(env: InteractionEnv, id: NodeId): void {
  const { storage } = env.node(id);
  const snap = storage.snapshot();
  env.out.push(`hard: ${describeHardState(storage.initialState().hardState)}`);
  if (snap.metadata.index > 0) env.out.push(`snapshot: ${describeSnapshot(snap)}`);
  const first = storage.firstIndex();
  const last = storage.lastIndex();
  if (last < first) env.out.push('log is empty');
  else for (const e of storage.entries(first, index(last + 1), Number.MAX_SAFE_INTEGER)) env.out.push(describeEntry(e));
}

function filterOf(cmd: CommandLine): { from?: NodeId; type?: string } {
  const from = cmd.options.get('from');
  const type = cmd.options.get('type');
  return { ...(from === undefined ? {} : { from }), ...(type === undefined ? {} : { type }) };
}

const handlers: Record<string, Handler> = {
  'add-nodes': addNodes,
  campaign: (env, cmd) => env.act(positionalArg(cmd, 0, 'node'), (raw) => raw.campaign()),
  'tick-election': (env, cmd) => each(cmd, (id) => ticks(env, id, env.node(id).options.electionTicks)),
  'tick-heartbeat': (env, cmd) => each(cmd, (id) => ticks(env, id, env.node(id).options.heartbeatTicks)),
  tick: (env, cmd) => ticks(env, positionalArg(cmd, 0, 'node'), Number(positionalArg(cmd, 1, 'tick count'))),
  propose: (env, cmd) => env.act(positionalArg(cmd, 0, 'node'), (raw) => raw.propose(encoder.encode(positionalArg(cmd, 1, 'data')))),
  'propose-conf-change': (env, cmd) => {
    const cc = { changes: parseChanges(cmd.positional.slice(1)), context: new Uint8Array(0), ...transitionOf(cmd) };
    env.act(positionalArg(cmd, 0, 'node'), (raw) => raw.proposeConfChange(cc));
  },
  'read-index': (env, cmd) => env.act(positionalArg(cmd, 0, 'node'), (raw) => raw.readIndex(encoder.encode(positionalArg(cmd, 1, 'context')))),
  'transfer-leadership': (env, cmd) => {
    const to = cmd.options.get('to');
    if (to === undefined) throw new Error('transfer-leadership: to= is required');
    env.act(cmd.options.get('from') ?? positionalArg(cmd, 0, 'from'), (raw) => raw.transferLeadership(to));
  },
  'process-ready': (env, cmd) => each(cmd, (id) => void env.processReady(id)),
  'deliver-msgs': (env, cmd) => each(cmd, (id) => void env.deliver(id, filterOf(cmd))),
  'drop-msgs': (env, cmd) => {
    const to = cmd.options.get('to');
    env.reportDropped(env.network.take({ ...filterOf(cmd), ...(to === undefined ? {} : { to }) }));
  },
  stabilize: (env, cmd) => env.stabilize(cmd.positional),
  isolate: (env, cmd) => each(cmd, (id) => env.reportDropped(env.network.isolate(id))),
  heal: (env) => env.network.heal(),
  crash: (env, cmd) =>
    each(cmd, (id) => {
      env.node(id).raw = null;
      env.reportDropped(env.network.take({ to: id }));
    }),
  restart: (env, cmd) =>
    each(cmd, (id) => {
      const node = env.node(id);
      if (node.raw !== null) throw new Error(`restart: node ${id} is not crashed`);
      node.options = nodeOptions(cmd, node.options);
      node.restart();
      env.status(id);
    }),
  status: (env, cmd) => (cmd.positional.length === 0 ? env.ids() : cmd.positional).forEach((id) => env.status(id)),
  'raft-log': (env, cmd) => rawLog(env, positionalArg(cmd, 0, 'node')),
  compact: (env, cmd) => {
    const node = env.node(positionalArg(cmd, 0, 'node'));
    node.compact(index(Number(positionalArg(cmd, 1, 'index'))), node.up().status().confState);
    rawLog(env, node.id);
  },
};

const nodeOptionKeys = ['prevote', 'checkquorum', 'election', 'heartbeat', 'max-msg-size', 'max-inflight', 'bugs'];

/** The key=value options each command accepts; any other is refused, so a typo cannot pass silently. */
const allowedOptions: Record<string, readonly string[]> = {
  'add-nodes': ['voters', 'learners', 'index', 'term', 'log-terms', ...nodeOptionKeys],
  restart: nodeOptionKeys,
  'transfer-leadership': ['from', 'to'],
  'propose-conf-change': ['transition'],
  'deliver-msgs': ['from', 'type'],
  'drop-msgs': ['from', 'to', 'type'],
};

/** Names of the commands scripts may use. */
export const commandNames: readonly string[] = [...Object.keys(handlers), 'log-level'];

/** Runs one command against `env`; throws for an unknown command or bad arguments. */
export function runCommand(env: InteractionEnv, cmd: CommandLine): void {
  const handler = handlers[cmd.name];
  if (handler === undefined) throw new Error(`unknown command "${cmd.name}" (known: ${commandNames.join(', ')})`);
  const allowed = allowedOptions[cmd.name] ?? [];
  for (const key of cmd.options.keys()) {
    if (!allowed.includes(key)) throw new Error(`${cmd.name}: unknown option ${key}= (allowed: ${allowed.join(', ') || 'none'})`);
  }
  handler(env, cmd);
}
