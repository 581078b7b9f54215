// For `BENCH_HEAP_PROFILE=<file> npm run bench peers`: V8's sampling heap profiler in this process, objects the GC
// collected included, i.e. what was allocated (the steadier figure of a turn's cost on a loaded machine).
import { Session } from 'node:inspector/promises';

interface HeapNode {
  selfSize: number;
  children: HeapNode[];
}

/** Starts sampling (every 1 KB on average); the function returned stops it: the profile and the bytes it counted. */
export async function startHeapSampling(): Promise<() => Promise<{ profile: object; bytes: number }>> {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.collectGarbage');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return async () => {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    session.disconnect();
    const total = (node: HeapNode): number => node.children.reduce((sum, child) => sum + total(child), node.selfSize);
    return { profile, bytes: total(profile.head as unknown as HeapNode) };
  };
}
