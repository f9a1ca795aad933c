// What a queued request listens to for its client leaving. An AbortSignal is one; the API server
// gives each request a ClientDeparture instead: an AbortController, its signal and the Event its
// abort dispatches cost every request a few microseconds, although almost none ever queues.

/** The part of an AbortSignal flow control reads. */
export interface Cancellation {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** A Cancellation that its owner ends once; listeners added after that are not called (as an AbortSignal's). */
export class ClientDeparture implements Cancellation {
  #aborted = false;
  #listeners: (() => void)[] | undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.#aborted) (this.#listeners ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const listeners = this.#listeners;
    const at = listeners?.indexOf(listener) ?? -1;
    if (at >= 0) listeners!.splice(at, 1);
  }

  /** The client left: every listener is called once, in the order they were added. */
  abort(): void {
    if (this.#aborted) return;
    this.#aborted = true;
    const listeners = this.#listeners ?? [];
    this.#listeners = undefined;
    for (const listener of listeners) listener();
  }
}
