// PMV_TRACE=1: each start-up phase on stderr as it ends, with the time and CPU since the process began
// (the benchmark and anyone chasing a slow start read them).
export function startupTrace(env: NodeJS.ProcessEnv = process.env): ((phase: string) => void) | undefined {
  if (!env.PMV_TRACE) return undefined;
  return (phase) => {
    const { user, system } = process.cpuUsage();
    process.stderr.write(`plan-memory-viewer: ${Math.round(performance.now())} ms (cpu ${Math.round((user + system) / 1000)} ms) ${phase}\n`);
  };
}
