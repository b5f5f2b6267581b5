/**
 * The GPU sampler's one pending poll: `soon` (a zero-delay task) or `after` (a timer), either
 * cancelled by `cancel`.
 *
 * `soon` posts to a MessageChannel rather than calling setTimeout(0): browsers clamp a timer set
 * from a timer task nested five deep to 4 ms, so a job submitted from a result's continuation (the
 * sampling probe's stages, a bench's runs) waited 4 ms before its dispatch, half of a 65³ grid's
 * whole latency on the H100 machine. A channel message is never clamped; like a timer it runs after
 * the messages already queued, so jobs posted in one burst still go out as one batch.
 */
export class PollTimer {
  private timeout: ReturnType<typeof setTimeout> | undefined;
  private channel: MessageChannel | null = null;
  /** The callback of the pending `soon`, null when none (a message already posted is then ignored). */
  private pendingSoon: (() => void) | null = null;

  /** Whether a poll is pending. */
  get pending(): boolean {
    return this.timeout !== undefined || this.pendingSoon !== null;
  }

  /** Runs `fn` as the next task after those already queued (no clamping). Replaces a pending poll. */
  soon(fn: () => void): void {
    this.cancel();
    if (typeof MessageChannel === 'undefined') {
      this.timeout = setTimeout(() => { this.timeout = undefined; fn(); }, 0);
      return;
    }
    if (!this.channel) {
      this.channel = new MessageChannel();
      this.channel.port1.onmessage = () => {
        const run = this.pendingSoon;
        this.pendingSoon = null;
        run?.();
      };
    }
    this.pendingSoon = fn;
    this.channel.port2.postMessage(null);
  }

  /** Runs `fn` after `ms` (a timer: nested ones are clamped, which suits a repeated poll). Replaces a pending poll. */
  after(ms: number, fn: () => void): void {
    this.cancel();
    this.timeout = setTimeout(() => { this.timeout = undefined; fn(); }, ms);
  }

  cancel(): void {
    clearTimeout(this.timeout);
    this.timeout = undefined;
    this.pendingSoon = null;
  }

  /** Cancels and closes the channel (the sampler is disposed). */
  close(): void {
    this.cancel();
    this.channel?.port1.close();
    this.channel = null;
  }
}
