/** A wake-up flag for a controller's loop: `fire` ends the current (or next) `wait` early. */
export class Wakeup {
  private fired = false;
  private resolve: (() => void) | undefined;

  /** Ends the current wait now, or the next one at once. */
  fire(): void {
    this.fired = true;
    this.resolve?.();
  }

  /** Waits `ms`, or less when fired meanwhile (or before); clears the flag. */
  async wait(ms: number): Promise<void> {
    if (!this.fired) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.resolve = resolve;
        timer = setTimeout(resolve, ms);
      });
      clearTimeout(timer);
      this.resolve = undefined;
    }
    this.fired = false;
  }
}
