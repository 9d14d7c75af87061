import { execFile, execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AutocannonLoad, AutocannonResult } from './autocannonLoad';

export interface WrkResult extends AutocannonResult {
  /** wrk's own CPU over the run (user and system), in ms, as it read /proc/self/stat when done. */
  cpuMs: number;
}

/** Where wrk is, or undefined when the machine has none (Debian's package `wrk`). */
export function wrkPath(): string | undefined {
  try {
    return execFileSync('sh', ['-c', 'command -v wrk'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The Lua that drives wrk: requests built once per thread in `init` (after wrk has set the Host header: built when the
 * script loads, they had none and every answer was a 400 that closed its connection), sent in turn; each status
 * counted when `countStatuses` (wrk then hands every answer to Lua, which costs it more per request, so only where
 * the statuses are the figure); and a JSON summary printed when done, with wrk's own CPU time.
 */
function scriptOf(paths: readonly string[] | undefined, countStatuses: boolean): string {
  const lines = ['threads = {}', 'setup = function(thread) table.insert(threads, thread) end'];
  if (paths) {
    lines.push(
      `local paths = { ${paths.map((path) => JSON.stringify(path)).join(', ')} }`,
      'local built = {}',
      'local at = 0',
      'init = function(args) for n, path in ipairs(paths) do built[n] = wrk.format("GET", path) end end',
      'request = function() at = at % #built + 1 return built[at] end',
    );
  }
  if (countStatuses) {
    lines.push(
      'statuses = {}',
      'response = function(status) local key = tostring(status) statuses[key] = (statuses[key] or 0) + 1 end',
    );
  }
  lines.push(
    'done = function(summary, latency, requests)',
    '  local counts = {}',
    '  for _, thread in ipairs(threads) do',
    '    local own = thread:get("statuses") or {}',
    '    for key, count in pairs(own) do counts[key] = (counts[key] or 0) + count end',
    '  end',
    '  local parts = {}',
    '  for key, count in pairs(counts) do table.insert(parts, string.format("%q:%d", key, count)) end',
    '  local stat = io.open("/proc/self/stat"):read("*a")',
    '  local fields = {}',
    '  for field in stat:sub(stat:find(")", 1, true) + 2):gmatch("%S+") do table.insert(fields, field) end',
    '  local e = summary.errors',
    '  io.write(string.format(',
    '    "\\nWRK-SUMMARY {\\"requests\\":%d,\\"durationUs\\":%d,\\"p50Us\\":%d,\\"non2xx\\":%d,\\"errors\\":%d,\\"cpuTicks\\":%d,\\"statuses\\":{%s}}\\n",',
    '    summary.requests, summary.duration, latency:percentile(50), e.status,',
    '    e.connect + e.read + e.write + e.timeout, tonumber(fields[12]) + tonumber(fields[13]), table.concat(parts, ",")))',
    'end',
  );
  return lines.join('\n');
}

/**
 * Closed-loop GET load by wrk, a C generator in a process of its own: on 2 cores it sends and reads about twice what
 * a bare node:http server answers, where autocannon (JavaScript, about as much CPU per request as node:http spends
 * answering) reached only 1.1-1.3x, so the bare server's figure was partly autocannon's. One thread, `connections`
 * kept-alive connections; `dir` holds the script.
 */
export function wrkLoad(
  wrk: string,
  dir: string,
  load: AutocannonLoad & { countStatuses?: boolean },
): Promise<WrkResult> {
  const target = new URL(load.url);
  if (target.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) {
    throw new Error(`load is only sent to loopback http URLs, not ${load.url}`);
  }
  const script = join(dir, `wrk-${process.pid}.lua`);
  writeFileSync(script, scriptOf(load.paths, load.countStatuses ?? false));
  const args = ['-t1', `-c${load.connections}`, `-d${load.durationS}s`, '-s', script, load.url];
  return new Promise((resolve, reject) => {
    execFile(wrk, args, { encoding: 'utf8', timeout: (load.durationS + 30) * 1000 }, (error, stdout, stderr) => {
      const line = /^WRK-SUMMARY (.+)$/m.exec(stdout)?.[1];
      if (error || !line) {
        reject(new Error(`wrk ${args.join(' ')} failed: ${error?.message ?? 'no summary'}\n${stderr}${stdout}`));
        return;
      }
      const summary = JSON.parse(line) as {
        requests: number;
        durationUs: number;
        p50Us: number;
        non2xx: number;
        errors: number;
        cpuTicks: number;
        statuses: Record<string, number>;
      };
      resolve({
        requests: summary.requests,
        elapsedMs: summary.durationUs / 1000,
        latencyP50Ms: summary.p50Us / 1000,
        non2xx: summary.non2xx,
        errors: summary.errors,
        statuses: summary.statuses,
        // USER_HZ is 100 on Linux: a tick is 10 ms (as procStats reads it).
        cpuMs: summary.cpuTicks * 10,
      });
    });
  });
}
