// bench/memory.ts's baseline: a bare process that LISTs the ClusterDeployments it is sent (over IPC: { url, token })
// and keeps the parsed JSON, then answers { empty, holding, items }: its RSS before and after, in bytes.
import { readFileSync } from 'node:fs';

const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;
const { url, token } = await new Promise<{ url: string; token: string }>((r) =>
  process.once('message', (m) => r(m as { url: string; token: string })),
);
await new Promise((r) => setTimeout(r, 1000));
const empty = rss();
const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
const held = (await res.json()) as { items: unknown[] };
// Let the response buffers go before measuring what stays: the objects.
(globalThis as { gc?: () => void }).gc?.();
await new Promise((r) => setTimeout(r, 2000));
process.send!({ empty, holding: rss(), items: held.items.length });
// Keep the objects alive until the parent stops this process.
setInterval(() => held.items.length, 60_000);
