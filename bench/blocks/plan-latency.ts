// Plan against a catalog that takes a few milliseconds per request, as a real one across a
// network does: the sandbox adds the same latency to every request (`--faults`), for the floor
// and for plan alike. Beside the time: the CPU plan's process used per contract, and its peak
// memory; the least and the minimal client by name, alternating with plan. Needs the plan block
// (its workspaces and the requests plan sent).
import { median } from '../timing.js';
import {
  LATENCIES_MS,
  LEAST_CPU_TARGET,
  MEMORY_SETTINGS,
  PLAN_SIZES,
  PLAN_TARGETS,
  RUNS,
} from '../lib/options.js';
import { floor, timeLeast, timeMinimalClient, timePlan } from '../lib/processes.js';
import { results, rows, spread } from '../lib/report.js';
import { startSandbox, token } from '../lib/sandbox.js';
import { planWorkspaces } from '../lib/workspaces.js';

export async function planLatencyBlock(): Promise<void> {
  for (const latency of LATENCIES_MS) {
    for (const n of PLAN_SIZES) {
      const { workspace, gets, planRequests, validateMs, plain } = planWorkspaces.get(n)!;
      // The minimal client reads by name (issue #50's client, a row of its own since #69): plan's
      // other requests, and one GET a contract where plan read the list.
      const byNameRequests = [
        ...planRequests.filter((request) => request.path.split('?')[0] !== '/v1/dataContracts'),
        ...(planRequests.some((request) => request.path.split('?')[0] === '/v1/dataContracts')
          ? gets
          : []),
      ];
      const largest = n === PLAN_SIZES[PLAN_SIZES.length - 1];
      const sandbox = await startSandbox(
        workspace.seedFile,
        latency === 0 ? [] : ['--faults', `latency=${latency}`],
      );
      const env = { CATALOG_URL: sandbox.url, CATALOG_TOKEN: token };
      const planMs: number[] = [];
      const floorMs: number[] = [];
      const cpuMs: number[] = [];
      const rss: number[] = [];
      const minimalMs: number[] = [];
      const minimalCpuMs: number[] = [];
      const leastMs: number[] = [];
      const leastCpuMs: number[] = [];
      const limited = MEMORY_SETTINGS.map(() => [] as { cpuMs: number; rssKiB: number }[]);
      // Alternately, in each run: the floor, the minimal client sending plan's own requests by
      // name, the least, plan (and at the largest size, plan again with each of the
      // MEMORY_SETTINGS).
      for (let run = 0; run < RUNS; run++) {
        floorMs.push(await floor(sandbox.url, gets));
        const minimal = await timeMinimalClient(sandbox.url, byNameRequests, workspace.dir);
        minimalMs.push(minimal.ms);
        minimalCpuMs.push(minimal.cpuMs);
        const least = await timeLeast(sandbox.url, workspace.dir);
        leastMs.push(least.ms);
        leastCpuMs.push(least.cpuMs);
        const plan = await timePlan(workspace.dir, env);
        planMs.push(plan.ms);
        cpuMs.push(plan.cpuMs);
        rss.push(plan.rssKiB);
        if (largest)
          for (const [i, setting] of MEMORY_SETTINGS.entries())
            limited[i]!.push(await timePlan(workspace.dir, { ...env, ...setting.env }));
      }
      await sandbox.stop();
      // Each memory setting's median peak and CPU per contract (at the largest size only).
      const limitedMedians = limited.map((runs) => ({
        peakRssMiB: median(runs.map((r) => r.rssKiB)) / 1024,
        cpuMsPerContract: median(runs.map((r) => r.cpuMs)) / n,
      }));
      // Plan's CPU and time ÷ the least's in the same run (issue #69's yardstick).
      const leastCpuRatios = cpuMs.map((ms, run) => ms / leastCpuMs[run]!);
      const leastTimeRatios = planMs.map((ms, run) => ms / leastMs[run]!);
      const plainCpuMs = median(plain.cpuMs);
      const floorMedian = median(floorMs);
      const planMedian = median(planMs);
      const cpuPerContractMs = median(cpuMs) / n;
      const rssMiB = median(rss) / 1024;
      const ratio = planMedian / floorMedian;
      // Nearly the least a plan can take that sends nothing before every file is valid: the files
      // validated, then the floor, with nothing for the table lists, the planning or the output.
      const boundMs = validateMs + floorMedian;
      const boundRatio = boundMs / floorMedian;
      // Each run's plan beside the floor measured just before it: how far the machine's drift
      // within the benchmark moves the ratio of the medians.
      const runRatios = planMs.map((ms, run) => ms / floorMs[run]!);
      const target = n === PLAN_SIZES[PLAN_SIZES.length - 1] ? PLAN_TARGETS[latency] : undefined;
      results[`plan${n}Latency${latency}`] = {
        n,
        latencyMs: latency,
        planMs: planMedian,
        fetchFloorMs: floorMedian,
        ratio,
        target: target ?? null,
        cpuMsPerContract: cpuPerContractMs,
        peakRssMiB: rssMiB,
        runRatios,
        validateMs,
        validateThenFloorRatio: boundRatio,
        minimalClientMs: median(minimalMs),
        minimalClientCpuMsPerContract: median(minimalCpuMs) / n,
        plainValidateCpuMsPerContract: plainCpuMs / n,
        leastMs: median(leastMs),
        leastCpuMsPerContract: median(leastCpuMs) / n,
        leastCpuRatios,
        leastCpuTarget: LEAST_CPU_TARGET,
        leastTimeRatios,
        ...(largest
          ? Object.fromEntries(
              MEMORY_SETTINGS.map((setting, i) => [
                setting.key,
                { env: setting.env, ...limitedMedians[i]! },
              ]),
            )
          : {}),
      };
      rows.push([
        `plan, N = ${n.toLocaleString('en')}, catalog +${latency} ms a request`,
        `${planMedian.toFixed(0)} ms`,
        `fetch floor ${floorMedian.toFixed(0)} ms`,
        `${ratio.toFixed(2)}×${target === undefined ? '' : ` (≤ ${target}× ${ratio <= target ? '✓ met' : '✗ not met'})`}`,
      ]);
      rows.push([
        `  each run beside the floor just before it`,
        runRatios.map((r) => `${r.toFixed(2)}×`).join(' '),
        '',
        '',
      ]);
      rows.push([
        `  validate (${validateMs.toFixed(0)} ms), then the floor`,
        `${boundMs.toFixed(0)} ms`,
        '',
        `${boundRatio.toFixed(2)}×`,
      ]);
      rows.push([
        `  its CPU per contract, and peak memory`,
        `${(cpuPerContractMs * 1000).toFixed(0)} µs`,
        `${rssMiB.toFixed(0)} MiB`,
        '',
      ]);
      rows.push([
        `  the least (files validated, the list read by pages)`,
        `${median(leastMs).toFixed(0)} ms`,
        `${((median(leastCpuMs) / n) * 1000).toFixed(0)} µs CPU a contract`,
        '',
      ]);
      rows.push([
        `  plan's CPU ÷ the least's, min / median / max`,
        spread(leastCpuRatios, 2, '×'),
        '',
        largest
          ? `≤ ${LEAST_CPU_TARGET}× ${median(leastCpuRatios) <= LEAST_CPU_TARGET ? '✓ met' : '✗ not met'}`
          : '',
      ]);
      rows.push([`  plan's time ÷ the least's`, spread(leastTimeRatios, 2, '×'), '', '']);
      rows.push([
        `  the minimal client by name (${byNameRequests.length.toLocaleString('en')} requests, JSON.parse)`,
        `${median(minimalMs).toFixed(0)} ms`,
        `${((median(minimalCpuMs) / n) * 1000).toFixed(0)} µs CPU a contract`,
        '',
      ]);
      if (largest)
        for (const [i, setting] of MEMORY_SETTINGS.entries())
          rows.push([
            `  peak memory and CPU per contract with ${setting.label}`,
            `${limitedMedians[i]!.peakRssMiB.toFixed(0)} MiB`,
            `${(limitedMedians[i]!.cpuMsPerContract * 1000).toFixed(0)} µs`,
            '',
          ]);
      rows.push([`  plan ÷ the floor, min / median / max`, spread(runRatios, 2, '×'), '', '']);
    }
  }
}
