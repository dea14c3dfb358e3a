import type { IncomingMessage } from 'node:http';
import { openRequest, type KubeTarget } from './transport.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface WatchOptions {
  /** Start after this version (exclusive). Without it the server sends the current objects as ADDED first. */
  resourceVersion?: string;
  labelSelector?: string;
  onEvent(type: WatchEventType, obj: any): void;
  /** The version we resume from has been compacted away (410 Gone): the caller must relist. The watch has stopped. */
  onGone(): void;
  onError?(err: unknown): void;
  /** The server accepted the watch (again, after a reconnect). */
  onOpen?(): void;
  /** Real-time delay before reconnecting a dropped stream. */
  reconnectMs?: number;
}

export interface WatchHandle {
  stop(): void;
  /** The last resourceVersion seen (an event or a bookmark). */
  resourceVersion(): string | undefined;
}

/**
 * A watch that survives dropped streams: it reconnects from the last resourceVersion it saw (bookmarks included),
 * and hands control back to the caller for a relist when the server answers 410 Gone.
 */
export function startWatch(target: KubeTarget, path: string, opts: WatchOptions): WatchHandle {
  let rv = opts.resourceVersion;
  let stopped = false;
  // The open stream; destroyed (without an error) to stop. An AbortSignal would surface stray AbortErrors.
  let current: IncomingMessage | undefined;
  let timer: NodeJS.Timeout | undefined;
  const reconnectMs = opts.reconnectMs ?? 250;

  // Not unref'd: while the API server is away (a restart), this timer is what keeps a controllers' process
  // alive, as client-go's reflector keeps retrying. stop() clears it.
  const reconnect = () => {
    if (stopped) return;
    timer = setTimeout(() => void connect(), reconnectMs);
  };
  const gone = () => {
    stopped = true;
    current?.destroy();
    opts.onGone();
  };

  async function connect() {
    if (stopped) return;
    const q = new URLSearchParams({ watch: 'true', allowWatchBookmarks: 'true' });
    if (rv) q.set('resourceVersion', rv);
    if (opts.labelSelector) q.set('labelSelector', opts.labelSelector);
    try {
      const res = await openRequest(target, { method: 'GET', path: `${path}?${q}` });
      res.on('error', () => {}); // a reset connection ends the loop below, which reconnects
      if (stopped) return void res.destroy();
      current = res;
      if (res.statusCode === 410) {
        res.resume();
        return gone();
      }
      if (res.statusCode !== 200) {
        res.resume();
        opts.onError?.(new Error(`watch ${path}: HTTP ${res.statusCode}`));
        return reconnect();
      }
      opts.onOpen?.();
      let buffer = '';
      res.setEncoding('utf8');
      for await (const chunk of res) {
        buffer += chunk;
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl).trim();
          buffer = buffer.slice(nl + 1);
          if (!line) continue;
          const ev = JSON.parse(line);
          if (ev.type === 'ERROR') {
            if (ev.object?.code === 410) return gone();
            opts.onError?.(new Error(`watch ${path}: ${ev.object?.message ?? 'error event'}`));
            res.destroy();
            return reconnect();
          }
          const version = ev.object?.metadata?.resourceVersion;
          if (version) rv = version;
          if (ev.type === 'BOOKMARK') continue;
          opts.onEvent(ev.type, ev.object);
        }
      }
      reconnect(); // the server closed the stream (timeout): resume where we were
    } catch (err) {
      if (stopped) return;
      opts.onError?.(err);
      reconnect();
    }
  }

  void connect();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      current?.destroy();
    },
    resourceVersion: () => rv,
  };
}
