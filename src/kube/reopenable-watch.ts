// client-node's Watch with two additions a hub whose credentials change needs: each watch request takes the hub's
// KubeConfig as it is at that moment, and `reopen()` ends the open watch requests as if the server had closed them.
// ListWatch (the informer) answers a clean close by watching again from its last resourceVersion: the cache stays,
// consumers see no ADDED or DELETED that did not happen, and only a resourceVersion too old for the server (410 Gone)
// costs a relist, exactly as after any server-side close. `transform` sees every event's object before the informer
// caches it (kind-informer.ts strips write bookkeeping there: slim-object.ts).
import { Watch, type KubeConfig } from '@kubernetes/client-node';

type WatchArgs = Parameters<Watch['watch']>;

export class ReopenableWatch extends Watch {
  private readonly open = new Set<() => void>();
  private generation = 0;

  constructor(
    private readonly kubeConfig: () => KubeConfig,
    private readonly transform: <T>(obj: T) => T = (obj) => obj,
  ) {
    super(kubeConfig());
  }

  override async watch(
    path: WatchArgs[0],
    queryParams: WatchArgs[1],
    callback: WatchArgs[2],
    done: WatchArgs[3],
  ): Promise<AbortController> {
    // Watch.watch reads `config` (server, then TLS options and token) before its first await.
    this.config = this.kubeConfig();
    const generation = this.generation;
    let finished = false;
    let reopening = false;
    const transform = this.transform;
    const transformed: WatchArgs[2] = (phase, apiObj, watchObj) => callback(phase, transform(apiObj), watchObj);
    const controller = await super.watch(path, queryParams, transformed, (err: unknown) => {
      finished = true;
      this.open.delete(reopen);
      done(reopening ? null : err);
    });
    function reopen() {
      reopening = true;
      controller.abort();
    }
    if (!finished) {
      this.open.add(reopen);
      // Credentials changed while this request was being opened with the old ones.
      if (generation !== this.generation) reopen();
    }
    return controller;
  }

  /** Ends every open watch request cleanly; the informer opens it again with the current KubeConfig. */
  reopen(): void {
    this.generation++;
    for (const reopen of [...this.open]) reopen();
  }
}
