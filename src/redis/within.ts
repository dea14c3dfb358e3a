// A Redis call with a deadline. The fail-fast client rejects at once while disconnected, but a half-open connection
// (a peer gone without a FIN) leaves a command pending until TCP gives up, minutes later; a probe, a gauge refresh
// or a lease renewal must not wait that long.
export class RedisTimeout extends Error {
  constructor(what: string, ms: number) {
    super(`Redis did not answer ${what} within ${ms} ms`);
    this.name = 'RedisTimeout';
  }
}

export function within<T>(ms: number, what: string, call: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisTimeout(what, ms)), ms);
    timer.unref();
  });
  return Promise.race([call, late]).finally(() => clearTimeout(timer));
}
