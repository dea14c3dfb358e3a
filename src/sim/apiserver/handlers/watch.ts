// Watch: newline-delimited events over a chunked 200 response. Each stored event is encoded once per API view
// and the same bytes go to every matching watcher. Resume from a resourceVersion replays the resource's watch cache,
// even after etcd compacted those revisions (golden 58); versions older than the cache's window get one in-band
// ERROR 410 (golden 59); resourceVersion 0 or none starts with synthetic ADDED events
// (golden 57). Bookmarks, timeoutSeconds and fault-injected drops end or annotate the stream as upstream does.
import type { ServerResponse } from 'node:http';
import type { ApiRequest, ServerContext } from '../context.js';
import type { StoreEvent } from '../store.js';
import type { ResourceType } from '../types.js';
import { badRequest, statusBody } from '../status.js';
import { converts, fromStorage } from '../object-pipeline.js';
import { filterOf, validateListOptions } from './read.js';
import { renderTable, type TableRequest } from '../table.js';

const MAX_BUFFERED = 32 * 1024 * 1024;

function line(type: string, objectJson: string): Buffer {
  return Buffer.from(`{"type":"${type}","object":${objectJson}}\n`);
}

function viewJson(rt: ResourceType, obj: any, json: string): string {
  return converts(rt, obj) ? JSON.stringify(fromStorage(rt, obj)) : json;
}

function bookmark(rt: ResourceType, rv: number): Buffer {
  const apiVersion = rt.group ? `${rt.group}/${rt.version}` : rt.version;
  const obj = rt.builtin
    ? { kind: rt.kind, apiVersion, metadata: { resourceVersion: String(rv) } }
    : { apiVersion, kind: rt.kind, metadata: { resourceVersion: String(rv) } };
  return line('BOOKMARK', JSON.stringify(obj));
}

export function watchObjects(ctx: ServerContext, req: ApiRequest, table?: TableRequest) {
  const type = req.type;
  validateListOptions(req, true);
  const { match } = filterOf(req); // throws 400 before the stream starts on a bad selector
  const ns = type.namespaced ? req.namespace : undefined;
  // Watchers of one view share each event's encoded line; a CRD's versions are views of one table.
  const view = type.builtin?.fromStorage || type.custom ? `${type.group}/${type.version}` : '';
  const wantsBookmarks = req.query.get('allowWatchBookmarks') === 'true';
  const timeoutSeconds = Number(req.query.get('timeoutSeconds') ?? 0) || 1800;
  const rvParam = req.query.get('resourceVersion') ?? '';
  if (rvParam && !/^\d+$/.test(rvParam)) throw badRequest(`invalid resource version: ${rvParam}`);

  return (res: ServerResponse) => {
    const headers: Record<string, string | string[]> = {
      'content-type': 'application/json',
      'cache-control': 'no-cache, private',
    };
    if (req.warnings.length) headers.warning = req.warnings;
    res.writeHead(200, headers);
    res.flushHeaders();
    const timers: NodeJS.Timeout[] = [];
    let unsubscribe = () => {};
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      unsubscribe();
      timers.forEach(clearTimeout);
      res.end();
    };
    res.on('close', end);
    const write = (buf: Buffer) => {
      if (ended) return;
      res.write(buf);
      if (res.writableLength > MAX_BUFFERED) end(); // a watcher that cannot keep up is dropped, like upstream
    };

    // Table watches (kubectl get -w) send each object as a one-row Table; only the first carries the column
    // definitions (endpoints/handlers/watch.go sets NoHeaders after the first event).
    let headersSent = false;
    const emit = (kind: string, obj: any, json: string, shared?: StoreEvent) => {
      if (table) {
        const view = fromStorage(type, obj);
        const rows = renderTable(
          type,
          [view],
          { resourceVersion: view.metadata?.resourceVersion },
          table,
          ctx.clock.now(),
          headersSent,
        );
        headersSent = true;
        return write(line(kind, JSON.stringify(rows)));
      }
      if (!shared) return write(line(kind, viewJson(type, obj, json)));
      let buf = shared.lines.get(view);
      if (!buf) shared.lines.set(view, (buf = line(shared.type, viewJson(type, shared.obj, shared.json))));
      write(buf);
    };

    // Only events newer than the requested version: a watch from a version the server has not reached yet waits
    // for it (cache_watcher.go process: event.ResourceVersion > resourceVersion).
    const after = rvParam && rvParam !== '0' ? Number(rvParam) : 0;
    const deliver = (e: StoreEvent) => {
      if (e.rv <= after || e.storageKey !== type.storageKey) return;
      if (ns && e.namespace !== ns) return;
      const nowMatches = match(fromStorage(type, e.obj));
      const wasMatching = e.type === 'MODIFIED' && e.prev ? match(fromStorage(type, e.prev)) : nowMatches;
      let kind: string = e.type;
      if (e.type === 'MODIFIED' && nowMatches !== wasMatching) kind = nowMatches ? 'ADDED' : 'DELETED';
      else if (!nowMatches) return;
      if (kind === 'ADDED' && e.type === 'MODIFIED') return emit(kind, e.obj, e.json);
      if (kind === 'DELETED' && e.type === 'MODIFIED') {
        // The watch cache sends the previous content (what the watcher last matched) stamped with the event's
        // resourceVersion (cacher/cache_watcher.go convertToWatchEvent).
        const last = { ...e.prev, metadata: { ...e.prev.metadata, resourceVersion: String(e.rv) } };
        return emit(kind, last, JSON.stringify(last));
      }
      emit(e.type, e.obj, e.json, e);
    };

    if (rvParam === '' || rvParam === '0') {
      const prefix = ns ? `${ns}/` : '';
      for (const key of ctx.store.sortedKeys(type.storageKey)) {
        if (prefix && !key.startsWith(prefix)) continue;
        const record = ctx.store.get(type.storageKey, key)!;
        if (match(fromStorage(type, record.obj))) emit('ADDED', record.obj, record.json);
      }
    } else {
      const start = ctx.store.watchFrom(type.storageKey, Number(rvParam));
      if ('tooOldFor' in start) {
        const status = statusBody(410, 'Expired', `too old resource version: ${rvParam} (${start.tooOldFor})`);
        write(line('ERROR', JSON.stringify(status)));
        return end();
      }
      for (const e of start.events) deliver(e);
    }
    unsubscribe = ctx.store.subscribe(deliver);

    timers.push(setTimeout(end, timeoutSeconds * 1000));
    if (wantsBookmarks) {
      // Upstream sends a bookmark about a minute apart and shortly before the timeout (golden 56).
      const every = setInterval(() => write(bookmark(type, ctx.store.currentRv())), 60_000);
      timers.push(every);
      timers.push(
        setTimeout(() => write(bookmark(type, ctx.store.currentRv())), Math.max(0, timeoutSeconds * 1000 - 1500)),
      );
    }
    // Injected drops apply to open streams too: re-armed whenever the fault settings change.
    let dropTimers: NodeJS.Timeout[] = [];
    const armDrops = () => {
      dropTimers.forEach(clearTimeout);
      dropTimers = [];
      const drops = ctx.faults.watchDrops();
      if (drops?.afterMs !== undefined) dropTimers.push(setTimeout(end, drops.afterMs));
      if (drops?.ratePerSecond) {
        const rate = drops.ratePerSecond;
        dropTimers.push(
          setInterval(() => {
            if (Math.random() < rate) end();
          }, 1000),
        );
      }
    };
    armDrops();
    const stopFaults = ctx.faults.onChange(armDrops);
    res.on('close', () => {
      stopFaults();
      dropTimers.forEach(clearTimeout);
    });
  };
}
