// bench/memory.ts's baseline: a bare process that LISTs the ClusterDeployments it is sent (over IPC: { url, token })
// and keeps the parsed JSON, then answers { empty, holding, items }: its RSS before and after, in bytes.
// Plain JavaScript so that it runs under bare `node`, as the roles do from dist/ (a .ts file would need tsx's loader,
// whose own ~40 MB the roles no longer carry).
import { readFileSync } from 'node:fs';
import { setInterval } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';

const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;
/** @type {{ url: string; token: string }} */
const { url, token } = await new Promise((r) => process.once('message', r));
await sleep(1000);
const empty = rss();
const res = await globalThis.fetch(url, { headers: { authorization: `Bearer ${token}` } });
/** @type {{ items: unknown[] }} */
const held = await res.json();
// Let the response buffers go before measuring what stays: the objects.
globalThis.gc?.();
await sleep(2000);
process.send({ empty, holding: rss(), items: held.items.length });
// Keep the objects alive until the parent stops this process.
setInterval(() => held.items.length, 60_000);
