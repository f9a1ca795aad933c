// The three Pod Security Standards levels and how a label or configuration value names one
// (k8s.io/pod-security-admission/api: Level, ParseLevel, CompareLevels).

/** A Pod Security Standards level, from least to most strict. */
export type Level = 'privileged' | 'baseline' | 'restricted';

/** The levels in the order kube lists them in its error messages. */
export const levels: readonly Level[] = ['privileged', 'baseline', 'restricted'];

/** What parsing a level gives: always a level to use, and an error message when the text was not one. */
export interface ParsedLevel {
  readonly level: Level;
  readonly error?: string;
}

/** Parses a level; an unknown value gives `restricted` (fail closed) and an error, as kube does. */
export function parseLevel(text: string): ParsedLevel {
  if ((levels as readonly string[]).includes(text)) return { level: text as Level };
  return { level: 'restricted', error: `must be one of ${levels.join(', ')}` };
}

/** -1, 0 or +1 as `a` is less strict than, as strict as, or stricter than `b`. */
export function compareLevels(a: Level, b: Level): number {
  return Math.sign(levels.indexOf(a) - levels.indexOf(b));
}
