/**
 * How a long local command (`seed`, `recount`, `bench`, `load`) shows it is moving: on a
 * terminal, a line on stderr every few seconds with how far it got, its rate and, when the
 * total is known, about how long is left. When stderr is not a terminal (a pipe, a log file, a
 * test) it prints nothing: the command's own result lines are what such a reader wants.
 * PROGRESS_INTERVAL_MS sets the interval (default 3000), for tests.
 */

export interface Progress {
  /** `n` more done. */
  tick(n?: number): void;
  /** This many done in all. */
  set(done: number): void;
  /** Stops the lines (and prints a last one on a terminal). */
  finish(): void;
}

const number = (n: number) => Math.round(n).toLocaleString('en-US');

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  if (seconds < 90) return `${Math.ceil(seconds)} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

/**
 * `label` says what runs ("seed"), `unit` what is counted ("actions"); `total` when known, for
 * the share and the time left; `note` adds to each line (a run of fixed length says its time).
 */
export function progress(label: string, unit: string, total?: number, note?: () => string): Progress {
  const started = Date.now();
  let done = 0;
  const line = () => {
    const seconds = (Date.now() - started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const share = total ? ` of ${number(total)} (${Math.floor((100 * done) / total)}%)` : '';
    const left = total && rate > 0 ? `, about ${duration((total - done) / rate)} left` : '';
    return `${label}: ${number(done)}${share} ${unit}, ${number(rate)}/s${left}${note ? `, ${note()}` : ''}`;
  };
  const counting = {
    tick(n = 1) {
      done += n;
    },
    set(n: number) {
      done = n;
    },
  };
  if (!process.stderr.isTTY) return { ...counting, finish() {} };
  const interval = Number(process.env.PROGRESS_INTERVAL_MS) || 3000;
  const timer = setInterval(() => process.stderr.write(`${line()}\n`), interval);
  timer.unref();
  return {
    ...counting,
    finish() {
      clearInterval(timer);
      process.stderr.write(`${line()}, done in ${duration((Date.now() - started) / 1000)}\n`);
    },
  };
}
