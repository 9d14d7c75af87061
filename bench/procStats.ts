import { readFileSync } from 'node:fs';

/** Resident set size in MiB from /proc (Linux); NaN elsewhere, which misses its target rather than faking a pass. */
export function residentMiB(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/**
 * CPU time (user and system) a process has used, in ms, from /proc/PID/stat (Linux): fields 14 and 15 (proc(5)) in
 * clock ticks of 10 ms (USER_HZ is 100 on Linux); NaN elsewhere.
 */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces, so count from the parenthesis that closes it: field 3 is index 0.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}
