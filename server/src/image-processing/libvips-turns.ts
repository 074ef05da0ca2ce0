/**
 * libvips keeps one error buffer for the whole process. When a decode fails, sharp reads that
 * buffer for the reason, and a decode running beside it may have cleared it or written its own
 * message there meanwhile: a cut-off JPEG was refused as "Unknown error", or with another file's
 * "Empty JPEG image" (six broken and good test files decoded side by side 60 times: 12 wrong
 * reasons; the full test run once failed on it). The person who uploaded the file would be told
 * the wrong reason.
 *
 * So work that may fail runs side by side as before, and whatever failed is run once more alone —
 * nothing else of libvips runs meanwhile — so its reason is its own. Failures are rare (broken
 * files), so the pause they cost the others is too.
 */
export class LibvipsTurns {
  private running = 0;
  /** An alone run under way (or waiting for the others to finish): newcomers wait for it. */
  private alone: Promise<void> | undefined;
  private whenIdle: (() => void)[] = [];

  /** Runs `work`, and if it throws, runs it again alone and answers that. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await this.sideBySide(work);
    } catch {
      return this.runAlone(work);
    }
  }

  private async sideBySide<T>(work: () => Promise<T>): Promise<T> {
    while (this.alone) await this.alone;
    this.running += 1;
    try {
      return await work();
    } finally {
      this.running -= 1;
      if (this.running === 0) for (const wake of this.whenIdle.splice(0)) wake();
    }
  }

  private async runAlone<T>(work: () => Promise<T>): Promise<T> {
    while (this.alone) await this.alone;
    let done = () => {};
    this.alone = new Promise<void>((resolve) => {
      done = resolve;
    });
    try {
      while (this.running > 0) await new Promise<void>((resolve) => this.whenIdle.push(resolve));
      return await work();
    } finally {
      this.alone = undefined;
      done();
    }
  }
}

/** The one per process: every libvips decode of this process takes its turns here (derive.ts, probe.ts). */
export const libvipsTurns = new LibvipsTurns();
