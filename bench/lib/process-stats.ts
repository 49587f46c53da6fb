import fs from 'node:fs';

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return kb * 1024;
}

/** Resident memory of a process, from /proc (Linux), in bytes. */
export function rssOf(pid: number): number {
  return statusField(pid, 'VmRSS');
}

/** Peak resident memory since the process started or since `resetPeak`. */
export function peakRssOf(pid: number): number {
  return statusField(pid, 'VmHWM');
}

/**
 * Resets the kernel's peak-RSS mark (VmHWM) to the current RSS: `echo 5 > /proc/PID/clear_refs`
 * (Linux 4.0+; needs to own the process). Returns false where that is not allowed.
 */
export function resetPeak(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return peakRssOf(pid) <= rssOf(pid) + 64 * 1024;
  } catch {
    return false;
  }
}

/** Polls RSS every millisecond or so until stopped; returns the highest value seen. */
export function pollPeak(pid: number): { stop(): number } {
  let peak = rssOf(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssOf(pid));
    } catch {
      // the process ended
    }
  }, 1);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

/**
 * CPU time a process has used so far (user and system, all its threads), in seconds, from
 * /proc/PID/stat (fields 14 and 15, in clock ticks of 1/100 s on Linux).
 */
export function cpuSecondsOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; the fields after it start at its closing bracket.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export const MB = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

export function median(values: number[]): number {
  const sorted = [...values].filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * The `p`th percentile of `values`, the one rank rule of every percentile in bench/: the ascending
 * sorted value at 0-based index ⌊p/100 × n⌋, clamped to the last (NaN when there are none).
 */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : Number.NaN;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `send` while the server's peak resident memory is watched: the kernel's own peak mark
 * (VmHWM, reset just before) or, where it cannot be reset, RSS polled about every millisecond.
 * Returns what `send` returned, how long it took, and the peak minus RSS just before.
 */
export async function measureServerPeak<T>(
  pid: number,
  send: () => Promise<T>,
): Promise<{
  result: T;
  ms: number;
  rssBefore: number;
  growth: number;
  polledGrowth: number;
  method: 'VmHWM' | 'polled VmRSS';
}> {
  await sleep(300);
  const hwm = resetPeak(pid);
  const rssBefore = rssOf(pid);
  const poll = pollPeak(pid);
  const t0 = performance.now();
  const result = await send();
  const ms = performance.now() - t0;
  const polledGrowth = poll.stop() - rssBefore;
  return {
    result,
    ms,
    rssBefore,
    growth: hwm ? peakRssOf(pid) - rssBefore : polledGrowth,
    polledGrowth,
    method: hwm ? 'VmHWM' : 'polled VmRSS',
  };
}
