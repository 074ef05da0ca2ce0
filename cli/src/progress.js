// @ts-check

/** @param {number} bytes */
export function formatBytes(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** @param {number} seconds */
function formatDuration(seconds) {
  if (!Number.isFinite(seconds)) return '…';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/**
 * Upload progress on stderr: one bar redrawn in place on a terminal (files, bytes, speed, time
 * left), plain lines otherwise (one per finished file), so logs stay readable.
 */
export class Progress {
  /**
   * @param {{ totalFiles: number, totalBytes: number, stream?: NodeJS.WriteStream }} options
   */
  constructor(options) {
    this.stream = options.stream ?? process.stderr;
    this.tty = this.stream.isTTY === true;
    this.totalFiles = options.totalFiles;
    this.totalBytes = options.totalBytes;
    this.doneFiles = 0;
    /** Bytes of the files to upload that the server has (including what it had from earlier runs). */
    this.doneBytes = 0;
    this.started = Date.now();
    /** Bytes that reached the server in this run so far (for the speed). */
    this.movedBytes = 0;
    this.lastDraw = 0;
    this.active = 0;
  }

  /** @param {number} bytes */
  advance(bytes) {
    this.doneBytes += bytes;
    if (bytes > 0) this.movedBytes += bytes;
    this.draw();
  }

  /** @param {string} line */
  fileDone(line) {
    this.doneFiles += 1;
    if (this.tty) {
      this.clear();
      this.stream.write(`${line}\n`);
      this.draw(true);
    } else {
      this.stream.write(`[${this.doneFiles}/${this.totalFiles}] ${line}\n`);
    }
  }

  /** @param {boolean} [force] */
  draw(force = false) {
    if (!this.tty) return;
    const now = Date.now();
    if (!force && now - this.lastDraw < 100) return;
    this.lastDraw = now;
    const fraction = this.totalBytes > 0 ? Math.min(1, this.doneBytes / this.totalBytes) : 1;
    const width = 24;
    const filled = Math.round(fraction * width);
    const seconds = (now - this.started) / 1000;
    const speed = seconds > 0 ? this.movedBytes / seconds : 0;
    const left = speed > 0 ? (this.totalBytes - this.doneBytes) / speed : Infinity;
    const line =
      `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.floor(fraction * 100)}%  ` +
      `${formatBytes(this.doneBytes)} of ${formatBytes(this.totalBytes)}  ${formatBytes(speed)}/s  ` +
      `${formatDuration(left)} left  files ${this.doneFiles}/${this.totalFiles}`;
    this.stream.write(`\r${line.slice(0, (this.stream.columns || 120) - 1)}\u001b[K`);
  }

  clear() {
    if (this.tty) this.stream.write('\r\u001b[K');
  }

  finish() {
    this.clear();
  }
}
