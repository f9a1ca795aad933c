// Turns of the event loop for long work done a piece at a time (the pages of a large LIST read,
// decoded and encoded). A piece that waits with setImmediate alone runs in the next check phase
// together with every other waiting piece: twenty LISTs in flight then make one loop iteration of
// twenty pages, and every short request (a create, a Raft heartbeat) waits for all of them at each
// of its I/O steps. Here the waiting pieces queue in arrival order and one runs per iteration, so
// I/O is polled between any two pieces, however many LISTs there are: they share the thread with
// the rest, as the goroutines of kube-apiserver share its cores, instead of taking it in turns.

const waiting: (() => void)[] = [];
let pumping = false;

function releaseOne(): void {
  const next = waiting.shift();
  if (next === undefined) {
    pumping = false;
    return;
  }
  next();
  // Scheduled from the check phase: runs in the next iteration, after its poll phase.
  setImmediate(releaseOne);
}

/** Resolves in a later turn of the event loop, once every piece that asked before has had its turn. */
export function fairTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!pumping) {
      pumping = true;
      setImmediate(releaseOne);
    }
  });
}
